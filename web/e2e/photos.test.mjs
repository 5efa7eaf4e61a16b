// A photograph the owner adds (`ferroshop products add-image`, then named in the
// products CSV) reaches the shopper as a WebP copy sized for the screen: the page's
// HTML offers every width in srcset with the image's own width and height, and the
// browser downloads a copy no wider than it needs rather than the camera's original.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { decodeEntities } from './support/api.mjs';
import { waitFor } from './support/checks.mjs';
import { perViewport, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);
const workDir = mkdtempSync(path.join(tmpdir(), 'ferroshop-photos-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

const WIDTH = 1600;
const HEIGHT = 1200;
const LADDER = [160, 320, 480, 640, 960, 1280];

/** A camera-like JPEG drawn by the browser: gradients, circles and fine noise. */
async function drawPhotograph(page) {
  const dataUrl = await page.evaluate(
    ([width, height]) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const g = canvas.getContext('2d');
      const sky = g.createLinearGradient(0, 0, width, height);
      sky.addColorStop(0, '#1d3b53');
      sky.addColorStop(0.6, '#c77d4a');
      sky.addColorStop(1, '#f2d0a4');
      g.fillStyle = sky;
      g.fillRect(0, 0, width, height);
      for (let i = 0; i < 40; i += 1) {
        g.beginPath();
        g.fillStyle = `hsla(${(i * 37) % 360}, 60%, 55%, 0.35)`;
        g.arc((i * 173) % width, (i * 97) % height, 40 + ((i * 13) % 120), 0, Math.PI * 2);
        g.fill();
      }
      const noise = g.getImageData(0, 0, width, height);
      let seed = 7;
      for (let i = 0; i < noise.data.length; i += 4) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const n = (seed % 24) - 12;
        noise.data[i] += n;
        noise.data[i + 1] += n;
        noise.data[i + 2] += n;
      }
      g.putImageData(noise, 0, 0);
      return canvas.toDataURL('image/jpeg', 0.92);
    },
    [WIDTH, HEIGHT],
  );
  return Buffer.from(dataUrl.split(',')[1], 'base64');
}

/** RFC 4180 rows: quoted cells may hold commas, quotes ("") and line breaks. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

const csvCell = (value) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

let photographed = null;

/** Adds the photograph once and shows it on a product; returns { product, file, bytes }. */
function photographProduct(page) {
  photographed ??= (async () => {
    const bytes = await drawPhotograph(page);
    const original = path.join(workDir, 'Rail shot 01.jpg');
    writeFileSync(original, bytes);
    const added = shop.command('products', 'add-image', original, '--alt', 'The product on a rail in evening light');
    const file = added.split(' ')[0];
    assert.equal(file, 'rail-shot-01.jpg', added);
    const product = await shop.api.pickProduct('simple product in stock', (p) => p.type === 'simple' && p.is_in_stock);
    // The owner's round trip: export, name the photograph in the row, import.
    const csv = path.join(workDir, 'products.csv');
    shop.command('products', 'export', csv);
    const [header, ...rows] = parseCsv(readFileSync(csv, 'utf8'));
    const row = rows.find((r) => r[header.indexOf('ID')] === String(product.id));
    row[header.indexOf('Images')] = file;
    writeFileSync(csv, [header, row].map((r) => r.map(csvCell).join(',')).join('\n'));
    shop.command('products', 'import', csv);
    // The running shop hears of the change through the catalogue's change log.
    await waitFor(async () => (await shop.api.product(product.id)).images[0]?.name === file, {
      timeout: 15_000,
      message: 'the product to show the photograph',
    });
    return { product, file, bytes };
  })();
  return photographed;
}

perViewport((viewport) => {
  shop.test('a photograph reaches the page as a WebP copy sized for the screen', viewport, async ({ page, shot }) => {
    const { product, file, bytes } = await photographProduct(page);
    const html = await (await page.request.get(`/product/${product.slug}/`)).text();
    const img = html.match(new RegExp(`<img[^>]*src="[^"]*/media/${file}"[^>]*>`))?.[0];
    assert.ok(img, 'the server-rendered page shows the photograph');
    assert.match(img, new RegExp(`width="${WIDTH}"`));
    assert.match(img, new RegExp(`height="${HEIGHT}"`));
    for (const w of LADDER) assert.ok(img.includes(`/media/${file}?w=${w} ${w}w`), `srcset offers ${w}w: ${img}`);
    assert.ok(img.includes(`/media/${file} ${WIDTH}w`), 'srcset ends with the original');

    const images = [];
    page.on('response', (res) => {
      if (res.url().includes(`/media/${file}`)) images.push({ url: res.url(), type: res.headers()['content-type'], status: res.status() });
    });
    await page.goto(`/product/${product.slug}/`);
    const main = page.getByRole('img', { name: 'The product on a rail in evening light' }).first();
    await main.waitFor();
    await waitFor(() => main.evaluate((el) => el.complete && el.naturalWidth > 0), { message: 'the photograph to load' });
    const shown = await main.evaluate(async (el) => {
      // naturalWidth is scaled by the srcset's density; the file's own size is not.
      const bitmap = await createImageBitmap(await (await fetch(el.currentSrc)).blob());
      return { src: el.currentSrc, pixels: bitmap.width, box: el.getBoundingClientRect().width };
    });
    const chosen = Number(new URL(shown.src).searchParams.get('w'));
    assert.ok(LADDER.includes(chosen), `the browser took a copy, not the original: ${shown.src}`);
    assert.equal(shown.pixels, chosen, 'the copy is as wide as its srcset says');
    assert.ok(chosen >= shown.box, `the copy (${chosen} px) covers the box (${Math.round(shown.box)} px)`);
    assert.ok(chosen < WIDTH);
    const fetched = images.filter((i) => i.status === 200);
    assert.ok(fetched.length > 0, 'the photograph was fetched');
    for (const i of fetched) {
      assert.equal(i.type, 'image/webp', `${i.url} is a WebP copy`);
    }
    const copy = await page.request.get(shown.src);
    assert.ok((await copy.body()).length < bytes.length / 3, 'the copy weighs a fraction of the original');
    await shot('photo-product');

    // A listing shows the same photograph from a small copy.
    await page.goto(`/shop/?s=${encodeURIComponent(decodeEntities(product.name))}`);
    const card = page.locator(`img[src*="/media/${file}"]`).first();
    await card.scrollIntoViewIfNeeded();
    await waitFor(() => card.evaluate((el) => el.complete && el.naturalWidth > 0), { message: 'the card photograph to load' });
    const cardSrc = await card.evaluate((el) => el.currentSrc);
    assert.match(cardSrc, /\?w=\d+$/, 'the card shows a copy');
    assert.ok(Number(new URL(cardSrc).searchParams.get('w')) <= 640, cardSrc);
    await page.getByRole('button', { name: /Add to cart/ }).first().waitFor();
    await shot('photo-listing');
  });
});

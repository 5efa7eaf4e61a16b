// What the server puts in a product page's HTML before any script runs (title,
// description, canonical link, Product JSON-LD), and the 404 page for products
// the shop does not have.

import assert from 'node:assert/strict';
import { decodeEntities, htmlToText } from './support/api.mjs';
import { expectAttribute, expectURL, waitFor } from './support/checks.mjs';
import { perViewport, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);

/** The served HTML of `path` (fetched with the page's cookies) and what its head says. */
async function servedHead(page, path) {
  const res = await page.request.get(path);
  const html = await res.text();
  const head = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'text/html');
    return {
      title: doc.title,
      description: doc.querySelector('meta[name="description"]')?.getAttribute('content') ?? null,
      canonical: doc.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
      jsonLd: [...doc.querySelectorAll('script[type="application/ld+json"]')].map((script) => script.textContent),
      hasRoot: doc.getElementById('root') !== null,
    };
  }, html);
  return { status: res.status(), contentType: res.headers()['content-type'] ?? '', ...head };
}

/** "14.00" for 1400 minor units. */
function decimal(amount, minorUnit) {
  const digits = String(amount).padStart(minorUnit + 1, '0');
  return minorUnit > 0 ? `${digits.slice(0, -minorUnit)}.${digits.slice(-minorUnit)}` : digits;
}

/** The meta description: the short description as text, cut to 160 characters. */
function expectDescription(actual, product) {
  const text = htmlToText(product.short_description);
  assert.ok(text.length > 0, `${product.name} has a short description`);
  if ([...text].length <= 160) assert.equal(actual, text);
  else {
    assert.ok(actual.endsWith('…') && [...actual].length <= 160, `shortened description: ${actual}`);
    assert.ok(text.startsWith(actual.slice(0, -1).trimEnd()), `the description starts the short description: ${actual}`);
  }
}

async function expectProductHead(page, product) {
  const name = decodeEntities(product.name);
  const head = await servedHead(page, `/product/${product.slug}/`);
  assert.equal(head.status, 200);
  assert.match(head.contentType, /^text\/html/);
  assert.ok(head.hasRoot, 'the page is the storefront');
  assert.equal(head.title, `${name} – Ferroshop`);
  expectDescription(head.description, product);
  assert.equal(head.canonical, product.permalink);
  assert.equal(head.jsonLd.length, 2, 'two JSON-LD blocks: the product and its breadcrumbs');
  const ld = JSON.parse(head.jsonLd[0]);
  const crumbs = JSON.parse(head.jsonLd[1]);
  assert.equal(crumbs['@type'], 'BreadcrumbList');
  const items = crumbs.itemListElement;
  assert.deepEqual(items.map((item) => item.position), items.map((_, n) => n + 1));
  assert.equal(items[0].name, 'Home');
  assert.equal(items.at(-1).name, name);
  assert.equal(items.at(-1).item, product.permalink);
  if (product.categories.length > 0) assert.equal(items.at(-2).name, decodeEntities(product.categories[0].name));
  assert.equal(ld['@context'], 'https://schema.org/');
  assert.equal(ld['@type'], 'Product');
  assert.equal(ld.name, name);
  assert.equal(ld.url, product.permalink);
  if (product.sku) assert.equal(ld.sku, product.sku);
  assert.deepEqual(ld.image, product.images.map((image) => image.src));
  const { prices } = product;
  const availability = product.is_in_stock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock';
  assert.equal(ld.offers.priceCurrency, prices.currency_code);
  assert.equal(ld.offers.availability, availability);
  if (product.type === 'variable' && prices.price_range) {
    assert.equal(ld.offers['@type'], 'AggregateOffer');
    assert.equal(ld.offers.lowPrice, decimal(prices.price_range.min_amount, prices.currency_minor_unit));
    assert.equal(ld.offers.highPrice, decimal(prices.price_range.max_amount, prices.currency_minor_unit));
    assert.equal(ld.offers.offerCount, product.variations.length);
  } else {
    assert.equal(ld.offers['@type'], 'Offer');
    assert.equal(ld.offers.price, decimal(prices.price, prices.currency_minor_unit));
  }
}

perViewport((viewport) => {
  shop.test('product pages are served with their title, description, canonical link and JSON-LD', viewport, async ({ page }) => {
    const all = await shop.api.allProducts();
    const simple = all.find((p) => p.type === 'simple' && p.is_in_stock);
    const soldOut = all.find((p) => p.type === 'simple' && !p.is_in_stock);
    const variable = all.find((p) => p.type === 'variable' && p.prices.price_range && p.prices.price_range.min_amount !== p.prices.price_range.max_amount);
    assert.ok(simple && soldOut && variable);
    await page.goto('/');
    for (const product of [simple, soldOut, variable]) await expectProductHead(page, product);

    // Once the app runs, the tab keeps the same title.
    await page.goto(`/product/${variable.slug}/`);
    await page.getByRole('main').getByRole('heading', { level: 1, name: decodeEntities(variable.name), exact: true }).waitFor();
    await waitFor(async () => assert.equal(await page.title(), `${decodeEntities(variable.name)} – Ferroshop`), { message: 'the tab title' });
  });

  shop.test('an unknown product shows the 404 page', viewport, async ({ page, shot }) => {
    const missing = '/product/no-such-product-e2e/';
    await page.goto('/');
    const head = await servedHead(page, missing);
    assert.equal(head.status, 404);
    assert.ok(head.hasRoot, 'the 404 page is the storefront');
    assert.equal(head.title, 'Page not found – Ferroshop');
    assert.equal(head.canonical, null);
    assert.deepEqual(head.jsonLd, []);

    const res = await page.goto(missing);
    assert.equal(res.status(), 404);
    const main = page.getByRole('main');
    await main.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await main.getByText('404', { exact: true }).waitFor();
    await waitFor(async () => assert.equal(await page.title(), 'Page not found – Ferroshop'), { message: 'the tab title' });
    await shot('not-found');
    const back = main.getByRole('link', { name: 'Return to shop' });
    await expectAttribute(back, 'href', '/shop');
    await back.click();
    await expectURL(page, (url) => url.pathname === '/shop', 'be /shop');

    // An unknown category too.
    const category = await page.goto('/product-category/no-such-category-e2e');
    assert.equal(category.status(), 404);
    await main.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  });
});

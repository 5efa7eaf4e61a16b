// When the server cannot render a page (here: a server bundle whose render throws),
// the page is served as the bare app and the browser renders it: the shopper sees the
// page all the same, never an error.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { decodeEntities } from './support/api.mjs';
import { perViewport, useShop } from './support/shop.mjs';

const bundleDir = mkdtempSync(path.join(tmpdir(), 'ferroshop-broken-bundle-'));
const bundle = path.join(bundleDir, 'server.js');
after(() => rmSync(bundleDir, { recursive: true, force: true }));
writeFileSync(
  bundle,
  `var FerroshopServer = { load: function () { return Promise.resolve({ render: async function () { throw new Error('this bundle is broken'); } }); } };`,
);

const shop = useShop(import.meta.url, { env: { FERROSHOP_RENDER_BUNDLE: bundle } });

perViewport((viewport) => {
  shop.test('a page the server could not render is rendered by the browser', viewport, async ({ page }) => {
    const product = await shop.api.pickProduct('product in stock', (p) => p.is_in_stock);
    const res = await page.request.get(`/product/${product.slug}/`);
    assert.equal(res.status(), 200);
    const html = await res.text();
    assert.match(html, /<div id="root"><\/div>/, 'the page is the bare app');
    assert.doesNotMatch(html, /id="ferroshop-state"/);
    assert.match(html, /<title>[^<]+<\/title>/, 'the head is the server\u2019s all the same');

    await page.goto(`/product/${product.slug}/`);
    await page.getByRole('heading', { level: 1, name: decodeEntities(product.name) }).waitFor();
    await page.getByRole('button', { name: 'Add to cart', exact: true }).waitFor();
    assert.match(shop.serverOutput(), /server render failed/, 'the failure is logged');
  });
});

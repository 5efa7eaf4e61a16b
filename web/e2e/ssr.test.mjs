// Pages rendered on the server: each page's HTML, as fetched before any script runs,
// holds its main content; in the browser the page hydrates with the data it came
// with (no request for it again) and without a warning in the console.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addToCartVia, cartOf, decodeEntities, formatPrice, resultCountText } from './support/api.mjs';
import { expectHeaderCartName, expectNoAxeViolations, waitFor } from './support/checks.mjs';
import { perViewport, TEST_TIMEOUT_MS, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);

/** The text of the served page's main element, tags dropped, entities decoded. */
function mainText(html) {
  const main = /<main[\s\S]*?<\/main>/.exec(html)?.[0] ?? '';
  return decodeEntities(main.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ').trim();
}

/** The page's HTML as a client without scripts (or a crawler) gets it. */
async function served(path, cookie) {
  const res = await fetch(new URL(path, shop.baseURL), { headers: cookie ? { cookie } : {} });
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
  const html = await res.text();
  return { status: res.status, html, text: mainText(html), cookie: res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') };
}

async function someProduct() {
  return shop.api.pickProduct('simple product in stock', (p) => p.type === 'simple' && p.is_in_stock && p.is_purchasable);
}

test('each page arrives with its main content in the HTML', { timeout: TEST_TIMEOUT_MS }, async () => {
  const product = await someProduct();
  const name = decodeEntities(product.name);
  const [category] = (await shop.api.categories()).filter((c) => c.parent === 0 && c.count > 0);
  const { total } = await shop.api.products({ per_page: 1 });

  const home = await served('/');
  assert.equal(home.status, 200);
  assert.match(home.text, new RegExp(decodeEntities(category.name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the home page lists the categories');
  assert.match(home.html, /<script id="ferroshop-state" type="application\/json">/, 'the data travels in the page');

  const listing = await served('/shop/');
  assert.ok(listing.text.includes(resultCountText(total)), `the shop page counts its products: ${listing.text.slice(0, 200)}`);

  const inCategory = await served(`/product-category/${category.slug}/`);
  assert.ok(inCategory.text.includes(decodeEntities(category.name)));
  assert.ok(inCategory.text.includes(resultCountText(category.count)), 'the category page counts its products');

  const search = await served('/shop/?s=tee');
  assert.ok(search.text.includes('Search results: “tee”'));

  const page = await served(`/product/${product.slug}/`);
  assert.equal(page.status, 200);
  assert.ok(page.text.includes(name), 'the product page names the product');
  assert.match(page.html, /<h1[^>]*>[^<]*/, 'the product page has its heading');
  assert.ok(page.text.includes('Add to cart'), 'the product page has its add-to-cart button');

  const tracking = await served('/order-tracking/');
  assert.ok(tracking.text.includes('Order ID'));
  const account = await served('/my-account/');
  assert.ok(account.text.includes('Log in') && account.text.includes('Register'));
  const missing = await served('/no-such-page');
  assert.equal(missing.status, 404);
  assert.ok(missing.text.includes('Page not found'));

  // A shopper's own pages: the cart and checkout with what is in the cart.
  const first = await served('/cart/');
  assert.ok(first.text.includes('Your cart is currently empty.'));
  const add = await fetch(new URL('/?wc-ajax=add_to_cart', shop.baseURL), {
    method: 'POST',
    headers: { cookie: first.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: `product_id=${product.id}&quantity=2`,
  });
  assert.equal(add.status, 200);
  const cart = await served('/cart/', first.cookie);
  assert.ok(cart.text.includes(name), `the cart page lists ${name}: ${cart.text.slice(0, 300)}`);
  assert.ok(!cart.text.includes('Your cart is currently empty.'));
  const checkout = await served('/checkout/', first.cookie);
  assert.ok(checkout.text.includes('Billing details'), 'the checkout form is in the page');
  assert.ok(checkout.text.includes(name), 'the order review lists the product');
});

test('a page for a visitor without a session is the same page for the next one, with a session of its own', { timeout: TEST_TIMEOUT_MS }, async () => {
  const a = await served('/shop/');
  const b = await served('/shop/');
  assert.ok(a.cookie && b.cookie && a.cookie !== b.cookie, 'each visitor gets a session of their own');
  const nonce = (html) => JSON.parse(/<script id="ferroshop-settings" type="application\/json">([^<]*)<\/script>/.exec(html)[1]).store_api_nonce;
  assert.notEqual(nonce(a.html), nonce(b.html), 'each visitor gets the nonce of their own session');
  assert.equal(mainText(a.html), mainText(b.html));
});

perViewport((viewport) => {
  for (const path of ['/', '/shop/', 'product', '/product-category/clothing/', '/cart/', '/checkout/', '/my-account/', '/order-tracking/']) {
    shop.test(`${path} hydrates without fetching its data again or a console warning`, viewport, async ({ page }) => {
      const target = path === 'product' ? `/product/${(await someProduct()).slug}/` : path;
      if (path === '/cart/' || path === '/checkout/') {
        await page.goto('/order-tracking/');
        await addToCartVia(page, (await someProduct()).id);
      }
      const console = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') console.push(`${message.type()}: ${message.text()}`);
      });
      const calls = [];
      page.on('request', (request) => {
        // Reads only: the checkout saves the shopper's address as it opens, as it always has.
        if (request.method() === 'GET' && request.url().includes('/wp-json/')) calls.push(request.url());
      });
      // The server's header element, taken before any script of the page runs.
      await page.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          window.serverHeader = document.querySelector('#root header');
          // Parts taken over in tasks of their own (see hydrate-apart.tsx): the page's
          // heading, and its last link, deep in a put-off part.
          window.serverHeading = document.querySelector('#root main h1');
          window.serverLastLink = [...document.querySelectorAll('#root main a')].at(-1) ?? null;
        });
      });
      await page.goto(target, { waitUntil: 'networkidle' });
      // Hydrated: the app took the server's HTML over instead of drawing it again.
      await waitFor(() => page.evaluate(() => document.documentElement.dataset.app === 'ready'), { message: 'the app to start' });
      assert.ok(
        await page.evaluate(() => window.serverHeader !== null && window.serverHeader === document.querySelector('#root header')),
        'the header is still the element the server sent',
      );
      await page.waitForTimeout(300);
      assert.ok(
        await page.evaluate(
          () =>
            window.serverHeading === document.querySelector('#root main h1') &&
            window.serverLastLink === ([...document.querySelectorAll('#root main a')].at(-1) ?? null),
        ),
        'the parts taken over later are still the elements the server sent',
      );
      await page.waitForTimeout(300);
      assert.deepEqual(calls, [], 'the page fetched nothing it was rendered with');
      assert.deepEqual(console, [], 'the console stayed quiet');
      await expectNoAxeViolations(page, `${target} at ${viewport.width} px`);
    });
  }

  shop.test('a hydrated product page adds to the cart', viewport, async ({ page }) => {
    const product = await someProduct();
    await page.goto(`/product/${product.slug}/`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Add to cart', exact: true }).click();
    await waitFor(async () => (await cartOf(page)).items_count === 1, { message: 'the product is in the cart' });
    await expectHeaderCartName(page, formatPrice(Number(product.prices.price), product.prices), 1);
  });
});

// Express checkout (Apple Pay, Google Pay, Link) through the provider's emulator, with
// the Stripe.js double's Express Checkout Element in the page (its "Pay with test
// wallet" button plays the wallet's sheet: click, the test address US / CA / 94110, the
// first rate, then the payment): a purchase from a product page, in a cart of the
// button's own, that leaves the shopper's cart exactly as it was; one from the cart
// page that pays the shopper's cart at the prices the checkout would charge; a sheet
// closed on the cart page that leaves nothing behind; the button on the checkout; and
// a shop without provider keys, whose pages ask for nothing of it. The provider's code
// must arrive only once the page is interactive. axe-core and screenshots on each page
// with the button.

import assert from 'node:assert/strict';
import { addToCartVia, cartOf, chooseOption, decodeEntities, STORE_API } from './support/api.mjs';
import { restGet } from './support/checkout.mjs';
import { eventually, expectNoAxeViolations, expectText, expectURL } from './support/checks.mjs';
import { installStripeDouble, usePaymentEmulator } from './support/payment-emulator.mjs';
import { perViewport, useShop } from './support/shop.mjs';

const emulator = await usePaymentEmulator();
const shop = useShop(import.meta.url, { env: emulator.env });
// The same demo shop without provider keys: no card gateway, so no express checkout.
const plainShop = useShop(import.meta.url);

const WALLET_ADDRESS = { country: 'US', state: 'CA', city: 'San Francisco', postcode: '94110', address_1: '1 Main St' };
const RECEIVED = /^\/checkout\/order-received\/\d+\/?$/;
/** The chunks that carry the provider's code or the express element. */
const PROVIDER_CODE = /js\.stripe\.com|\/assets\/(load-stripe|express-checkout-element|payment-element|payment-box)-/;

/** A browser test with the emulator emptied, the double in the context, and the moment the app took the page over recorded. */
function expressTest(name, viewport, fn, { double = {} } = {}) {
  shop.test(name, viewport, async (run) => {
    await emulator.connectShop(shop.baseURL);
    await emulator.current.reset();
    await installStripeDouble(run.context, emulator.current);
    if (Object.keys(double).length > 0) {
      await run.context.addInitScript((extra) => Object.assign((window.__stripeDouble ??= {}), extra), double);
    }
    await run.context.addInitScript(() => {
      document.addEventListener('ferroshop:ready', () => {
        window.__appReadyAt = performance.now();
      });
    });
    await fn(run);
  });
}

/** Simple products that ship and can be bought two at a time. */
async function simpleProducts(api, count) {
  const products = (await api.allProducts()).filter(
    (p) => p.type === 'simple' && p.is_purchasable && p.is_in_stock && p.add_to_cart.minimum <= 1 && p.add_to_cart.maximum >= 2 && !p.sold_individually,
  );
  assert.ok(products.length >= count, `the demo shop has ${count} simple products to buy`);
  return products.slice(0, count).map((p) => ({ ...p, name: decodeEntities(p.name) }));
}

/** The double's record of what the page asked of the provider, by name. */
const doubleCalls = (page, name) => page.evaluate((wanted) => (window.__stripeDouble?.calls ?? []).filter((call) => call.name === wanted), name);

/** The express button, once the element has said a wallet can pay here. */
async function expressButton(page) {
  const button = page.getByTestId('express-checkout').getByRole('button', { name: 'Pay with test wallet' });
  await button.waitFor({ timeout: 20_000 });
  return button;
}

/** The provider's code and the express element arrived after the app had taken the page over. */
async function expectLoadedWhenInteractive(page) {
  const timing = await page.evaluate(() => ({
    ready: window.__appReadyAt,
    loads: performance
      .getEntriesByType('resource')
      .filter((entry) => /\/assets\/(load-stripe|express-checkout-element)-|express-checkout-params/.test(entry.name))
      .map((entry) => ({ name: entry.name, start: entry.startTime })),
  }));
  assert.ok(typeof timing.ready === 'number', 'the app said it had taken the page over');
  assert.ok(timing.loads.length >= 3, `the params, the element and the provider's loader were fetched: ${JSON.stringify(timing.loads)}`);
  for (const load of timing.loads) assert.ok(load.start >= timing.ready, `${load.name} was fetched at ${load.start} ms, before the page was interactive (${timing.ready} ms)`);
}

/** Waits for the thank-you page; the order as the shop shows it with its key. */
async function orderReceived(page) {
  const url = await expectURL(page, (u) => RECEIVED.test(u.pathname), 'be the order-received page', { timeout: 30_000 });
  await page.getByText('Thank you. Your order has been received.').waitFor();
  const id = url.pathname.split('/').filter(Boolean).pop();
  const key = url.searchParams.get('key');
  return eventually(
    async () => (await restGet(page, `/orders/${id}?key=${encodeURIComponent(key)}`)).body,
    (order) => order?.status === 'processing',
    `order ${id} to be paid`,
    { timeout: 20_000 },
  );
}

/** The shop's reference: a cart of the same lines, at the wallet's address, priced as the checkout prices it (its own session). */
async function checkoutPrices(baseURL, lines) {
  let cookies = '';
  let nonce = '';
  const call = async (path, init = {}) => {
    const res = await fetch(new URL(path, baseURL), { ...init, headers: { Accept: 'application/json', Cookie: cookies, ...(nonce ? { Nonce: nonce } : {}), ...init.headers } });
    const set = res.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
    if (set.length > 0) cookies = [...new Map([...cookies.split('; ').filter(Boolean), ...set].map((pair) => [pair.split('=')[0], pair])).values()].join('; ');
    nonce = res.headers.get('nonce') ?? nonce;
    const body = await res.json().catch(() => null);
    assert.ok(res.ok, `${path} answered ${res.status}: ${JSON.stringify(body)?.slice(0, 300)}`);
    return body;
  };
  await call(`${STORE_API}/cart`);
  for (const { id, quantity } of lines) {
    await call(`${STORE_API}/cart/add-item`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id, quantity }) });
  }
  return call(`${STORE_API}/cart/update-customer`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ shipping_address: WALLET_ADDRESS, billing_address: { ...WALLET_ADDRESS, email: 'ada@example.test' } }),
  });
}

/** What must not change: the lines, the totals and the addresses of a cart. */
const cartState = (cart) => ({
  items: cart.items.map((item) => ({ key: item.key, id: item.id, quantity: item.quantity })),
  totals: cart.totals,
  shipping_address: cart.shipping_address,
  billing_address: cart.billing_address,
  rates: (cart.shipping_rates ?? []).map((pkg) => pkg.shipping_rates.filter((rate) => rate.selected).map((rate) => rate.rate_id)),
});

perViewport((viewport) => {
  expressTest('a product page’s express purchase leaves the shopper’s cart exactly as it was', viewport, async ({ page, shot }) => {
    const [product, other] = await simpleProducts(shop.api, 2);
    await addToCartVia(page, other.id, 1);
    const before = await cartOf(page);

    // What the button's calls sent: each with the button cart's token, none with the shopper's cookies.
    const sent = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      const wcAjax = url.searchParams.get('wc-ajax') ?? '';
      if (wcAjax.startsWith('wc_stripe_') || url.pathname === `${STORE_API}/checkout`) sent.push({ name: wcAjax || url.pathname, headers: request.allHeaders() });
    });

    await page.goto(`/product/${product.slug}`);
    const button = await expressButton(page);
    await expectLoadedWhenInteractive(page);
    // Two of it: the button's amount follows the quantity.
    const quantity = page.getByRole('main').getByRole('spinbutton', { name: `${product.name} quantity` });
    await quantity.fill('2');
    await quantity.blur();
    await eventually(() => doubleCalls(page, 'elements.update'), (updates) => updates.some((call) => call.detail.amount >= 2 * Number(product.prices.price)), 'the button’s amount to be for two');
    await expectNoAxeViolations(page, `the product page with its express button at ${viewport.width} px`);
    await shot('express-product');

    await button.click();
    const order = await orderReceived(page);
    assert.equal(order.payment_method, 'stripe');
    assert.equal(order.payment_method_title, 'Apple Pay (Stripe)');
    assert.deepEqual(
      order.items.map((item) => [item.product_id, item.quantity]),
      [[product.id, 2]],
      'the order is the product page’s purchase only',
    );
    assert.equal(order.shipping_address.postcode, '94110');
    assert.equal(order.billing_address.email, 'ada.wallet@example.test');

    // The shopper's own cart is untouched: its line, its totals, its addresses.
    assert.deepEqual(cartState(await cartOf(page)), cartState(before));
    await expectText(page.getByTestId('header-cart-count'), '1');

    // The sheet went as the provider's goes, and the calls spoke for the button's cart.
    const [clicked] = await doubleCalls(page, 'express.click-resolved');
    assert.deepEqual(clicked.detail.shippingRates, [{ id: 'pending', amount: 0, displayName: 'Pending' }]);
    assert.equal(clicked.detail.shippingAddressRequired, true);
    const [rates] = await doubleCalls(page, 'express.shippingaddresschange-resolved');
    assert.ok(rates.detail.shippingRates.length > 0, 'the wallet’s address was offered rates');
    assert.equal((await doubleCalls(page, 'express.confirm')).length, 1);
    assert.equal((await doubleCalls(page, 'createPaymentMethod')).length, 1);
    const names = sent.map((request) => request.name);
    for (const name of ['wc_stripe_add_to_cart', 'wc_stripe_get_shipping_options', 'wc_stripe_update_shipping_method', 'wc_stripe_normalize_address', `${STORE_API}/checkout`]) {
      assert.ok(names.includes(name), `${name} was called: ${names.join(', ')}`);
    }
    for (const request of sent) {
      const headers = await request.headers;
      assert.ok(headers['cart-token'], `${request.name} named the button's cart`);
      assert.equal(headers.cookie, undefined, `${request.name} went without the shopper's cookies`);
    }
  });

  expressTest('a variable product asks for its options first, then the wallet buys the chosen variation', viewport, async ({ page, shot }) => {
    const listed = (await shop.api.allProducts()).find((p) => p.type === 'variable' && p.is_purchasable && p.is_in_stock);
    assert.ok(listed, 'the demo shop has a variable product in stock');
    const product = await shop.api.product(listed.id);
    const attributes = product.attributes.filter((a) => a.has_variations);
    const variations = await Promise.all(product.variations.map((ref) => shop.api.product(ref.id)));
    const target = variations.find((v) => v.is_in_stock && v.is_purchasable);
    assert.ok(target, 'the product has a variation in stock');
    const main = page.getByRole('main');

    await page.goto(`/product/${product.slug}`);
    const button = await expressButton(page);
    const clear = main.getByRole('button', { name: 'Clear', exact: true });
    if (await clear.isVisible()) await clear.click();
    await button.click();
    const notice = page.getByTestId('express-checkout').getByRole('alert');
    await expectText(notice, 'Please select your product options before proceeding.');
    assert.equal((await doubleCalls(page, 'express.click-rejected')).length, 1, 'the sheet did not open');
    await expectNoAxeViolations(page, `a variable product's express button asking for options at ${viewport.width} px`);
    await shot('express-product-options');

    const ref = product.variations.find((v) => v.id === target.id);
    for (const attribute of attributes) {
      const value = ref.attributes.find((a) => a.name === attribute.name)?.value;
      await chooseOption(main, attribute, value);
    }
    // The chosen variation is priced for the sheet before it opens.
    await eventually(() => doubleCalls(page, 'elements.update'), (updates) => updates.some((call) => call.detail.amount >= Number(target.prices.price)), 'the button’s amount to be the variation’s');
    await button.click();
    const order = await orderReceived(page);
    assert.deepEqual(
      order.items.map((item) => [item.product_id, item.variation_id, item.quantity]),
      [[product.id, target.id, 1]],
      'the order is the chosen variation',
    );
  });

  expressTest('a cart page’s express purchase pays the cart at the prices the checkout charges', viewport, async ({ page, shot }) => {
    const [first, second] = await simpleProducts(shop.api, 2);
    await addToCartVia(page, first.id, 2);
    await addToCartVia(page, second.id, 1);
    const cart = await cartOf(page);
    const reference = await checkoutPrices(shop.baseURL, [
      { id: first.id, quantity: 2 },
      { id: second.id, quantity: 1 },
    ]);

    await page.goto('/cart');
    const button = await expressButton(page);
    await expectLoadedWhenInteractive(page);
    // Above the way to the checkout, with the separator between them.
    const proceed = page.getByRole('link', { name: 'Proceed to checkout' });
    const [buttonBox, proceedBox] = [await button.boundingBox(), await proceed.boundingBox()];
    assert.ok(buttonBox.y + buttonBox.height <= proceedBox.y, 'the express button sits above “Proceed to checkout”');
    await page.getByText('— or —').waitFor();
    const [group] = await doubleCalls(page, 'elements');
    assert.equal(group.detail.options.amount, Number(cart.totals.total_price), 'the button starts from the cart’s total');
    await expectNoAxeViolations(page, `the cart with its express button at ${viewport.width} px`);
    await shot('express-cart');

    await button.click();
    const order = await orderReceived(page);
    assert.equal(order.payment_method_title, 'Apple Pay (Stripe)');
    assert.deepEqual(
      order.items.map((item) => [item.product_id, item.quantity]).sort(),
      cart.items.map((item) => [item.id, item.quantity]).sort(),
      'the order holds the cart’s lines',
    );
    assert.equal(order.totals.shipping, reference.totals.total_shipping, 'shipping as the checkout charges it');
    assert.equal(order.totals.tax, reference.totals.total_tax, 'tax as the checkout charges it');
    assert.equal(order.totals.total, reference.totals.total_price, 'the total the checkout charges');
    assert.equal(order.shipping_lines.length, 1);
    // The cart became the order.
    await eventually(() => cartOf(page), (c) => c.items.length === 0, 'the cart to be empty');
    await expectText(page.getByTestId('header-cart-count'), '0');
  });

  expressTest(
    'a sheet closed on the cart page leaves the cart as it was',
    viewport,
    async ({ page }) => {
      const [product] = await simpleProducts(shop.api, 1);
      await addToCartVia(page, product.id, 1);
      await page.goto('/cart');
      const before = cartState(await cartOf(page));
      const button = await expressButton(page);
      await button.click();
      await eventually(() => doubleCalls(page, 'express.cancel'), (calls) => calls.length === 1, 'the sheet to be closed');
      // The sheet's address and rate were the cart's while it was open; they are put back.
      await eventually(async () => cartState(await cartOf(page)), (now) => JSON.stringify(now) === JSON.stringify(before), 'the cart to be as it was');
      assert.equal((await doubleCalls(page, 'express.confirm')).length, 0);
      await expectText(page.getByTestId('header-cart-count'), '1');
    },
    { double: { expressSheet: 'cancel' } },
  );

  expressTest('the checkout offers express checkout at the top of its form', viewport, async ({ page, shot }) => {
    const [product] = await simpleProducts(shop.api, 1);
    await addToCartVia(page, product.id, 1);
    await page.goto('/checkout');
    const region = page.getByRole('region', { name: 'Express checkout' });
    await region.getByRole('button', { name: 'Pay with test wallet' }).waitFor({ timeout: 20_000 });
    await region.getByText('— or —').waitFor();
    const [regionBox, billingBox] = [await region.boundingBox(), await page.getByRole('heading', { name: 'Billing details' }).boundingBox()];
    assert.ok(regionBox.y + regionBox.height <= billingBox.y, 'express checkout comes before the billing details');
    await expectNoAxeViolations(page, `the checkout with its express button at ${viewport.width} px`);
    await shot('express-checkout');
  });

  plainShop.test('a shop without provider keys shows no express button and loads nothing of it', viewport, async ({ page, context }) => {
    const requests = [];
    page.on('request', (request) => requests.push(request.url()));
    await installStripeDouble(context, emulator.current);
    const [product] = await simpleProducts(plainShop.api, 1);
    const idle = () => page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 3000 })));
    await page.goto(`/product/${product.slug}`);
    await idle();
    await idle();
    await page.getByRole('main').getByRole('button', { name: 'Add to cart', exact: true }).click();
    await expectText(page.getByTestId('header-cart-count'), '1');
    await page.goto('/cart');
    await page.getByRole('link', { name: 'Proceed to checkout' }).waitFor();
    await idle();
    await idle();
    await page.goto('/checkout');
    await page.locator('#billing_first_name').waitFor();
    await idle();
    await idle();
    assert.equal(await page.getByTestId('express-checkout').count(), 0);
    assert.deepEqual(
      requests.filter((url) => url.includes('express-checkout-params') || PROVIDER_CODE.test(url)),
      [],
      'nothing of express checkout or the provider was asked for',
    );
    assert.deepEqual(await doubleCalls(page, 'Stripe'), [], 'the provider was never started');
  });
});

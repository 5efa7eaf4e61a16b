// The checkout: a guest order paid by bank transfer up to the thank-you page, the
// per-country address fields, the field checks and the error notices, coupons,
// shipping to another address, creating an account and logging in while checking
// out. Carts are filled through the shop's add-to-cart call; expected values come
// from the live APIs (the cart, the address rules, the order).

import assert from 'node:assert/strict';
import { addToCartVia, cartOf, decodeEntities, formatPrice } from './support/api.mjs';
import {
  acceptTerms,
  addressLocaleOf,
  customer,
  fillAddress,
  openCheckout,
  placeOrder,
  registerCustomer,
  restGet,
  reviewSettled,
  rowOf,
  settingsOf,
  trackOrder,
} from './support/checkout.mjs';
import {
  eventually,
  expectAttribute,
  expectClearOfHeader,
  expectCount,
  expectText,
  expectTextContaining,
  expectURL,
  expectValue,
  lineCountOf,
  textOf,
  waitFor,
} from './support/checks.mjs';
import { perViewport, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);

/** Simple products in stock that can be bought by the unit. */
async function simpleProducts(count) {
  const products = (await shop.api.allProducts()).filter(
    (p) => p.type === 'simple' && p.is_purchasable && p.is_in_stock && p.add_to_cart.minimum <= 1 && !p.sold_individually,
  );
  assert.ok(products.length >= count, `the demo shop has ${count} simple products to buy`);
  return products.slice(0, count).map((p) => ({ ...p, name: decodeEntities(p.name) }));
}

async function cartWithOneProduct(page, quantity = 1) {
  const [product] = await simpleProducts(1);
  await addToCartVia(page, product.id, quantity);
  return product;
}

/** Records the bodies of the Store API calls the order review refresh makes. */
function recordRefreshes(page) {
  const calls = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'POST' && /\/cart\/(update-customer|select-shipping-rate)$/.test(path)) {
      calls.push({ path, body: request.postDataJSON(), at: Date.now() });
    }
  });
  return calls;
}

/** What a field should look like for a country, worked out from the server's address rules. */
function expectedField(locale, country, key) {
  const merged = { ...locale.default[key], ...(locale.locale[country]?.[key] ?? {}) };
  return { label: merged.label, required: Boolean(merged.required), hidden: Boolean(merged.hidden) };
}

function stateKind(locale, country) {
  const states = locale.states[country];
  if (states === undefined || states === null) return 'text';
  return Array.isArray(states) ? 'hidden' : 'select';
}

/** Scrolls the window until `locator`'s top sits halfway up the sticky header, hidden under it. */
async function hideUnderHeader(page, locator) {
  await locator.evaluate((element) => {
    const header = document.querySelector('header').getBoundingClientRect();
    window.scrollBy(0, element.getBoundingClientRect().top - header.bottom / 2);
  });
}

/** Long values (an e-mail address, an IBAN) take one line when there is room, and never spill out of their box. */
async function expectFitted(locator, viewport) {
  const spill = await locator.evaluate((element) => element.scrollWidth - element.clientWidth);
  assert.ok(spill <= 0, `${locator} spills ${spill} px out of its box`);
  if (viewport.width >= 1280) assert.equal(await lineCountOf(locator), 1, `${locator} takes one line at ${viewport.width} px`);
}

perViewport((viewport) => {
  shop.test('a guest orders with bank transfer and reaches the thank-you page with the bank details', viewport, async ({ page, shot }) => {
    const product = await cartWithOneProduct(page, 2);
    const refreshes = recordRefreshes(page);
    await openCheckout(page);
    await expectCount(page.getByTestId('review-item'), 1);
    await expectTextContaining(page.getByTestId('review-item'), product.name);
    await expectTextContaining(page.getByTestId('review-item'), '× 2');
    await reviewSettled(page);
    await shot('checkout');

    const who = customer('guest');
    await fillAddress(page, 'billing', who);
    await page.locator('#order_comments').fill('Please leave it at the door.');
    await page.getByRole('radio', { name: 'Direct bank transfer' }).check();
    await expectAttribute(page.locator('.payment_box.payment_method_bacs'), 'data-open', 'true');
    await acceptTerms(page);
    await reviewSettled(page);

    // The review shows the cart the server priced for this address.
    const priced = await eventually(() => cartOf(page), (c) => c.billing_address?.postcode === who.postcode, 'the server to know the address');
    assert.ok(refreshes.some((call) => call.path.endsWith('/update-customer') && call.body.billing_address.email === who.email), 'the address went to update-customer');
    await expectText(page.getByTestId('review-subtotal'), formatPrice(priced.totals.total_items, priced.totals));
    await expectText(page.getByTestId('review-total'), formatPrice(priced.totals.total_price, priced.totals));

    const { orderId, key } = await placeOrder(page);
    await page.getByText('Thank you. Your order has been received.').waitFor();
    const { status, body: order } = await restGet(page, `/orders/${orderId}?key=${encodeURIComponent(key)}`);
    assert.equal(status, 200);
    assert.equal(order.payment_method, 'bacs');
    assert.equal(order.customer_note, 'Please leave it at the door.');
    assert.equal(order.totals.total, priced.totals.total_price);
    await expectText(page.getByTestId('order-number'), order.number);
    await expectText(page.getByTestId('order-overview-total'), formatPrice(order.totals.total, order.totals));
    await expectText(page.getByTestId('order-total'), formatPrice(order.totals.total, order.totals));
    await expectTextContaining(page.locator('.woocommerce-order-overview'), who.email);
    await page.getByRole('heading', { name: 'Our bank details' }).waitFor();
    assert.ok(order.bank_accounts.length > 0, 'the demo shop has a bank account');
    await expectTextContaining(page.locator('.woocommerce-bacs-bank-details'), order.bank_accounts[0].account_number);
    await expectTextContaining(page.getByTestId('billing-address'), who.address_1);
    await expectFitted(page.locator('.woocommerce-order-overview__email strong'), viewport);
    await expectFitted(page.locator('.woocommerce-bacs-bank-details .iban dd').first(), viewport);
    // A parcel by flat rate goes to the shipping address, which the order shows.
    assert.deepEqual(order.shipping_lines.map((line) => line.method_id), ['flat_rate']);
    await expectTextContaining(page.getByTestId('shipping-address'), who.address_1);

    // The order emptied the cart, and the header says so.
    await expectText(page.getByTestId('header-cart-count'), '0');
    assert.equal((await cartOf(page)).items_count, 0);
    await shot('order-received');

    await trackOrder(page, order.number, who.email);
    await expectTextContaining(page.getByTestId('shipping-address'), who.address_1);
    await shot('order-tracking-after-checkout');
  });

  shop.test('a local-pickup order shows no shipping address after checkout or when tracked', viewport, async ({ page }) => {
    await cartWithOneProduct(page);
    await openCheckout(page);
    const who = customer('pickup');
    await fillAddress(page, 'billing', who);
    await reviewSettled(page);
    // The rates for the whole address: the state is filled last, and until the server has it
    // the cart is quoted for the country's zone, which has no pickup counter.
    const cart = await eventually(
      () => cartOf(page),
      (c) => c.shipping_address?.state === who.state && c.shipping_rates?.[0]?.shipping_rates.length > 0,
      'shipping rates for the whole address',
    );
    const pickup = cart.shipping_rates[0].shipping_rates.find((rate) => rate.method_id === 'local_pickup');
    assert.ok(pickup, 'the demo shop offers local pickup');
    await page.getByRole('radio', { name: new RegExp(decodeEntities(pickup.name)) }).check();
    await eventually(
      () => cartOf(page),
      (c) => c.shipping_rates[0].shipping_rates.find((rate) => rate.rate_id === pickup.rate_id)?.selected,
      'local pickup chosen on the server',
    );
    await acceptTerms(page);
    const { orderId, key } = await placeOrder(page);
    const { body: order } = await restGet(page, `/orders/${orderId}?key=${encodeURIComponent(key)}`);
    assert.deepEqual(order.shipping_lines.map((line) => line.method_id), ['local_pickup']);

    await page.getByText('Thank you. Your order has been received.').waitFor();
    await expectTextContaining(page.getByTestId('billing-address'), who.address_1);
    await expectCount(page.getByTestId('shipping-address'), 0);
    await expectCount(page.getByRole('heading', { name: 'Shipping address' }), 0);

    await trackOrder(page, order.number, who.email);
    await expectTextContaining(page.getByTestId('billing-address'), who.address_1);
    await expectCount(page.getByTestId('shipping-address'), 0);
    await expectCount(page.getByRole('heading', { name: 'Shipping address' }), 0);
  });

  shop.test('an empty checkout shows the error notices, inline messages and the required terms', viewport, async ({ page, shot }) => {
    await cartWithOneProduct(page);
    await openCheckout(page);
    const settings = await settingsOf(page);
    assert.ok(settings.checkout?.terms, 'the demo shop has terms');
    await reviewSettled(page);
    await page.locator('#place_order').click();

    const group = page.locator('.woocommerce-NoticeGroup-checkout');
    await group.getByRole('alert').waitFor();
    const firstName = group.getByRole('link', { name: /First name/ });
    await expectAttribute(firstName, 'href', '#billing_first_name');
    await expectTextContaining(group, 'terms and conditions');
    await expectAttribute(rowOf(page, 'billing_first_name'), 'class', /woocommerce-invalid-required-field/);
    await expectTextContaining(rowOf(page, 'billing_first_name'), 'is a required field.');
    await expectAttribute(rowOf(page, 'terms'), 'class', /woocommerce-invalid/);
    await expectAttribute(page.locator('#billing_first_name'), 'aria-invalid', 'true');
    // The first invalid field has the focus, and the notices are in view.
    await waitFor(() => page.evaluate(() => document.activeElement?.id === 'billing_first_name'), { message: 'focus on the first name' });
    await waitFor(async () => (await group.boundingBox())?.y < viewport.height, { message: 'the notices in view' });
    await expectClearOfHeader(page, group);
    await shot('checkout-errors');

    // A notice's link leads to its field.
    const emailLink = group.getByRole('link', { name: /Email address/ });
    await emailLink.click();
    await waitFor(() => page.evaluate(() => document.activeElement?.id === 'billing_email'), { message: 'focus on the e-mail field' });
    await expectClearOfHeader(page, page.locator('#billing_email'));
    // Even a field hidden under the sticky header comes out from under it.
    await hideUnderHeader(page, rowOf(page, 'billing_first_name'));
    await firstName.dispatchEvent('click');
    await waitFor(() => page.evaluate(() => document.activeElement?.id === 'billing_first_name'), { message: 'focus on the first name' });
    await expectClearOfHeader(page, page.locator('#billing_first_name'));

    // Typing clears a field's error; leaving a bad value marks it again.
    await page.locator('#billing_first_name').fill('Ada');
    await waitFor(async () => !/woocommerce-invalid/.test(await rowOf(page, 'billing_first_name').getAttribute('class')), { message: 'the error to clear' });
    await page.locator('#billing_email').fill('ada@');
    await page.locator('#billing_email').blur();
    await expectAttribute(rowOf(page, 'billing_email'), 'class', /woocommerce-invalid-email/);
    await page.locator('#billing_phone').fill('call me');
    await page.locator('#billing_phone').blur();
    await expectAttribute(rowOf(page, 'billing_phone'), 'class', /woocommerce-invalid-phone/);
    await page.locator('#billing_phone').fill('+1 (555) 010-0100');
    await page.locator('#billing_phone').blur();
    await expectAttribute(rowOf(page, 'billing_phone'), 'class', /woocommerce-validated/);

    // The terms unfold in place, and the box is required.
    await page.getByRole('link', { name: 'terms and conditions', exact: true }).click();
    await expectAttribute(page.locator('#checkout-terms'), 'data-open', 'true');
    await expectTextContaining(page.locator('#checkout-terms'), decodeEntities(settings.checkout.terms.text).slice(0, 30));
    await page.locator('#terms').check();
    await expectAttribute(rowOf(page, 'terms'), 'class', /woocommerce-validated/);
  });

  shop.test('switching the country changes the state field, labels, required marks and prices', viewport, async ({ page, shot }) => {
    await cartWithOneProduct(page);
    const refreshes = recordRefreshes(page);
    await openCheckout(page);
    const locale = await addressLocaleOf(page);
    const known = new Set(locale.countries.map(([code]) => code));
    const unknown = locale.countries.map(([code]) => code).find((code) => !(code in locale.states));
    assert.ok(unknown, 'the country list has a country without a states entry');

    for (const country of ['US', 'DE', 'GB', unknown]) {
      assert.ok(known.has(country), `${country} can be chosen`);
      await page.locator('#billing_country').selectOption(country);
      const state = expectedField(locale, country, 'state');
      const postcode = expectedField(locale, country, 'postcode');
      const stateInput = page.locator('#billing_state');
      if (state.hidden) await expectCount(stateInput, 0);
      else {
        const kind = stateKind(locale, country);
        const actual = await stateInput.evaluate((element) => (element.tagName === 'SELECT' ? 'select' : element.getAttribute('type')));
        assert.equal(actual, kind, `${country}: the state field is a ${kind}`);
        if (kind !== 'hidden') {
          await expectTextContaining(rowOf(page, 'billing_state').locator('label'), decodeEntities(state.label));
          await expectCount(rowOf(page, 'billing_state').locator('abbr[title]'), state.required ? 1 : 0);
        }
      }
      if (postcode.hidden) await expectCount(page.locator('#billing_postcode'), 0);
      else {
        await expectTextContaining(rowOf(page, 'billing_postcode').locator('label'), decodeEntities(postcode.label));
        await expectCount(rowOf(page, 'billing_postcode').locator('abbr[title]'), postcode.required ? 1 : 0);
        await expectTextContaining(rowOf(page, 'billing_postcode').locator('label'), postcode.required ? '*' : '(optional)');
      }
      // A country change reprices the order at once (5 ms), with the new country.
      await waitFor(() => refreshes.some((call) => call.body?.billing_address?.country === country), { message: `a refresh for ${country}` });
      if (country === 'DE') await shot('checkout-germany');
    }

    // Typing waits for a pause and for a complete address before repricing.
    const switched = refreshes.length;
    await page.locator('#billing_country').selectOption('US');
    await waitFor(() => refreshes.slice(switched).some((call) => call.body?.billing_address?.country === 'US'), { message: 'a refresh for US' });
    await reviewSettled(page);
    const before = refreshes.length;
    await page.locator('#billing_city').fill('Austin');
    await page.waitForTimeout(1300);
    assert.equal(refreshes.length, before, 'no refresh while the address is incomplete');
    await fillAddress(page, 'billing', customer('country', { city: 'Austin', state: 'TX', postcode: '78701' }));
    await waitFor(() => refreshes.slice(before).some((call) => call.body?.billing_address?.state === 'TX' && call.body.billing_address.postcode === '78701'), {
      message: 'a refresh once the address is complete',
    });
  });

  shop.test('a coupon is applied, refused and removed', viewport, async ({ page, shot }) => {
    await cartWithOneProduct(page, 2);
    await openCheckout(page);
    await reviewSettled(page);
    const toggle = page.getByRole('link', { name: 'Click here to enter your code' });
    const input = page.getByPlaceholder('Coupon code');

    // A code the shop does not know.
    await toggle.click();
    await input.fill('NO-SUCH-CODE');
    await page.getByRole('button', { name: 'Apply coupon' }).click();
    const refusal = page.locator('.checkout_coupon [role="alert"]');
    await refusal.waitFor();
    assert.ok((await textOf(refusal)).length > 0, 'the refusal has a message');
    await expectAttribute(input, 'aria-invalid', 'true');

    // A real one, applied with the top of the page (where the notice appears) under the sticky header.
    await input.fill('WELCOME10');
    const apply = page.getByRole('button', { name: 'Apply coupon' });
    await hideUnderHeader(page, page.locator('.woocommerce-form-coupon-toggle'));
    await apply.click();
    const row = page.getByTestId('review-coupon');
    await expectCount(row, 1);
    await expectTextContaining(row, 'Coupon:');
    await expectAttribute(page.locator('#checkout-coupon'), 'data-open', 'false');
    const applied = page.getByRole('status').filter({ hasText: 'Coupon code applied successfully.' });
    await applied.waitFor();
    await expectClearOfHeader(page, applied);
    const withCoupon = await eventually(() => cartOf(page), (c) => c.coupons.length === 1, 'the coupon in the server cart');
    await expectTextContaining(row, formatPrice(withCoupon.coupons[0].totals.total_discount, withCoupon.coupons[0].totals));
    await expectText(page.getByTestId('review-total'), formatPrice(withCoupon.totals.total_price, withCoupon.totals));
    await shot('checkout-coupon');

    // Removing it, from the order review further down: the page goes up to the notice.
    await row.getByRole('link', { name: /Remove coupon/i }).click();
    await expectCount(row, 0);
    const removed = page.getByRole('status').filter({ hasText: 'Coupon has been removed.' });
    await removed.waitFor();
    await expectClearOfHeader(page, removed);
    const without = await eventually(() => cartOf(page), (c) => c.coupons.length === 0, 'no coupon in the server cart');
    await expectText(page.getByTestId('review-total'), formatPrice(without.totals.total_price, without.totals));

    // Free shipping by coupon.
    await fillAddress(page, 'billing', customer('coupon'));
    await reviewSettled(page);
    await toggle.click();
    await input.fill('FREESHIP');
    await page.getByRole('button', { name: 'Apply coupon' }).click();
    await expectCount(row, 1);
    const free = await eventually(
      () => cartOf(page),
      (c) => c.shipping_rates?.[0]?.shipping_rates.some((rate) => rate.method_id === 'free_shipping'),
      'a free shipping rate',
    );
    const freeRate = free.shipping_rates[0].shipping_rates.find((rate) => rate.method_id === 'free_shipping');
    const radio = page.getByRole('radio', { name: new RegExp(decodeEntities(freeRate.name)) });
    await radio.check();
    await eventually(
      () => cartOf(page),
      (c) => c.shipping_rates[0].shipping_rates.find((rate) => rate.rate_id === freeRate.rate_id)?.selected,
      'the free rate chosen on the server',
    );
  });

  shop.test('an order ships to a different address', viewport, async ({ page }) => {
    await cartWithOneProduct(page);
    const refreshes = recordRefreshes(page);
    await openCheckout(page);
    const billing = customer('ship');
    await fillAddress(page, 'billing', billing);
    await expectAttribute(page.locator('.shipping_address'), 'data-open', 'false');
    await page.getByLabel('Ship to a different address?').check();
    await expectAttribute(page.locator('.shipping_address'), 'data-open', 'true');
    const shipping = { first_name: 'Charles', last_name: 'Babbage', country: 'GB', address_1: '10 Downing Street', city: 'London', postcode: 'SW1A 2AA', state: '' };
    await fillAddress(page, 'shipping', shipping);
    await waitFor(() => refreshes.some((call) => call.body?.shipping_address?.country === 'GB' && call.body.shipping_address.city === 'London'), {
      message: 'a refresh with the shipping address',
    });
    await acceptTerms(page);
    const { orderId, key } = await placeOrder(page);
    const { body: order } = await restGet(page, `/orders/${orderId}?key=${encodeURIComponent(key)}`);
    assert.equal(order.shipping_address.city, 'London');
    assert.equal(order.billing_address.city, billing.city);
    await expectTextContaining(page.getByTestId('shipping-address'), '10 Downing Street');
    await expectTextContaining(page.getByTestId('billing-address'), billing.address_1);
  });

  shop.test('a guest creates an account while checking out', viewport, async ({ page }) => {
    await cartWithOneProduct(page);
    await openCheckout(page);
    const who = customer('signup');
    await fillAddress(page, 'billing', who);
    const box = page.getByLabel('Create an account?');
    await box.check();
    const password = page.locator('#account_password');
    await password.fill('Correct-Horse-42');
    await expectAttribute(password, 'type', 'password');
    await page.locator('#account_password_field').getByRole('button', { name: 'Show password' }).click();
    await expectAttribute(password, 'type', 'text');
    await acceptTerms(page);
    await placeOrder(page);
    await page.getByText('Thank you. Your order has been received.').waitFor();

    await page.goto('/my-account');
    await expectTextContaining(page.getByRole('main'), `Hello`);
    await page.getByRole('navigation', { name: 'Account pages' }).getByRole('link', { name: 'Orders' }).click();
    await expectCount(page.getByTestId('account-order'), 1);
  });

  shop.test('a returning customer logs in at checkout', viewport, async ({ page, shot }) => {
    const email = customer('login').email;
    await registerCustomer(shop.baseURL, { email, password: 'Correct-Horse-42' });
    await cartWithOneProduct(page);
    await openCheckout(page);
    await page.getByRole('link', { name: 'Click here to login' }).click();
    const form = page.getByRole('form', { name: 'Login' });
    await expectAttribute(page.locator('#checkout-login'), 'data-open', 'true');
    await form.getByLabel('Username or email address').fill(email);
    await form.locator('input[name="password"]').fill('wrong password');
    await form.getByRole('button', { name: 'Log in' }).click();
    await form.getByRole('alert').waitFor();
    await shot('checkout-login');

    await form.locator('input[name="password"]').fill('Correct-Horse-42');
    await form.getByRole('button', { name: 'Log in' }).click();
    // The page loads afresh as the customer: no login prompt, their e-mail filled in.
    await expectURL(page, (url) => url.pathname === '/checkout', 'stay on /checkout');
    await waitFor(async () => (await page.getByRole('link', { name: 'Click here to login' }).count()) === 0, { message: 'the login prompt to go' });
    await expectValue(page.locator('#billing_email'), email);
    const settings = await settingsOf(page);
    assert.equal(settings.account?.logged_in, true);
  });
});

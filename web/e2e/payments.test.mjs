// Card payments through the provider's emulator: paying at checkout, a declined card,
// 3-D Secure passed and failed, saving a card and paying with it later, paying for an
// order on its own page, adding a payment method, changing an order's payment method,
// the element setting up instead of paying when nothing is charged, the load-failure
// message, and that a page that takes no payment loads nothing of the provider (the
// express checkout's pages: express-checkout.test.mjs). The browser runs the
// Stripe.js double (support/stripe-double.js) against the same emulator the shop uses.
// Cards are the emulator's test cards (its notes: 4000000000000002 is not declined
// there, 4000000000000341 is).

import assert from 'node:assert/strict';
import { addToCartVia, cartOf, decodeEntities } from './support/api.mjs';
import { acceptTerms, customer, fillAddress, openCheckout, registerCustomer, restGet, reviewSettled } from './support/checkout.mjs';
import { eventually, expectCount, expectNoAxeViolations, expectText, expectTextContaining, expectURL } from './support/checks.mjs';
import { installStripeDouble, usePaymentEmulator } from './support/payment-emulator.mjs';
import { perViewport, useShop } from './support/shop.mjs';

const emulator = await usePaymentEmulator();
const shop = useShop(import.meta.url, { env: emulator.env });

const CARDS = {
  paid: '4242424242424242',
  declined: '4000000000000341',
  threeDSecure: '4000000000003220',
  threeDSecureSetup: '4000002760003184',
};
const EXPIRY = '12 / 34';
const CARD_TITLE = 'Credit / Debit Card';
const LOAD_FAILED = `Failed to load ${CARD_TITLE} payment method. Please refresh the page and try again.`;
const INVALID_DETAILS = 'Invalid or missing payment details. Please ensure the provided payment method is correctly entered.';
const AUTH_FAILED = 'We are unable to authenticate your payment method. Please choose a different payment method and try again.';
const SAVE_LABEL = 'Save payment information to my account for future purchases.';
const PASSWORD = 'Correct-Horse-42';

/** A browser test with the emulator emptied first and the double in the context. */
function payTest(name, viewport, fn, { double = {} } = {}) {
  shop.test(name, viewport, async (run) => {
    // The shop's webhook endpoint gets the emulator's events (payment_intent.succeeded…).
    await emulator.connectShop(shop.baseURL);
    await emulator.current.reset();
    if (double !== null) await installStripeDouble(run.context, emulator.current, double);
    await fn(run);
  });
}

async function someProduct() {
  const product = (await shop.api.allProducts()).find(
    (p) => p.type === 'simple' && p.is_purchasable && p.is_in_stock && p.add_to_cart.minimum <= 1 && !p.sold_individually,
  );
  assert.ok(product, 'the demo shop has a simple product in stock');
  return { ...product, name: decodeEntities(product.name) };
}

async function cartWithAProduct(page) {
  const product = await someProduct();
  await addToCartVia(page, product.id, 1);
  return product;
}

const cardBox = (page) => page.locator('.payment_box.payment_method_stripe');

/** Chooses the card and waits for its element (or for its load failure). */
async function chooseCard(page) {
  await page.getByRole('radio', { name: CARD_TITLE, exact: true }).check();
  await cardBox(page).getByLabel('Card number').or(cardBox(page).getByText(LOAD_FAILED)).first().waitFor();
}

async function fillCard(page, number, { expiry = EXPIRY, cvc = '123', scope = cardBox(page) } = {}) {
  await scope.getByLabel('Card number').fill(number);
  await scope.getByLabel('Expiration date').fill(expiry);
  await scope.getByLabel('Security code').fill(cvc);
}

/** Opens the checkout with a filled billing address and the card chosen. */
async function checkoutByCard(page, who = customer('card')) {
  await openCheckout(page);
  await fillAddress(page, 'billing', who);
  await acceptTerms(page);
  await reviewSettled(page);
  await chooseCard(page);
  return who;
}

async function placeOrder(page) {
  await reviewSettled(page);
  await page.locator('#place_order').click();
}

/** Waits for the thank-you page; returns { orderId, key }. */
async function orderReceived(page) {
  const url = await expectURL(page, (u) => /^\/checkout\/order-received\/\d+\/?$/.test(u.pathname), 'be the order-received page', { timeout: 30_000 });
  await page.getByText('Thank you. Your order has been received.').waitFor();
  return { orderId: url.pathname.split('/').filter(Boolean).pop(), key: url.searchParams.get('key') };
}

async function orderStatus(page, orderId, key) {
  const { status, body } = await restGet(page, `/orders/${orderId}?key=${encodeURIComponent(key)}`);
  assert.equal(status, 200, `the order ${orderId} can be read with its key`);
  return body.status;
}

async function logIn(page, email) {
  await page.goto('/my-account');
  const login = page.getByRole('form', { name: 'Login' });
  await login.getByLabel('Username or email address').fill(email);
  await login.locator('input[name="password"]').fill(PASSWORD);
  await login.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation', { name: 'Account pages' }).waitFor();
}

async function customerLoggedIn(page, tag) {
  const who = customer(tag);
  await registerCustomer(shop.baseURL, { email: who.email, password: PASSWORD, first_name: who.first_name, last_name: who.last_name });
  await logIn(page, who.email);
  return who;
}

/** The double's record of what the storefront asked of the provider. */
const doubleCalls = (page, name) => page.evaluate((wanted) => (window.__stripeDouble?.calls ?? []).filter((call) => call.name === wanted), name);

/** axe-core over the page from its top (scrolled, the sticky header covers fields no check should judge). */
async function expectAccessible(page, label) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectNoAxeViolations(page, label);
}

/** The options of the page's latest Elements group, as created and then updated. */
async function elementsOptions(page) {
  const calls = await page.evaluate(() => window.__stripeDouble?.calls ?? []);
  const start = calls.map((call) => call.name).lastIndexOf('elements');
  assert.ok(start >= 0, 'the page made an Elements group');
  return calls.slice(start + 1).filter((call) => call.name === 'elements.update').reduce((options, call) => ({ ...options, ...call.detail }), calls[start].detail.options);
}

/** Every request the page makes, for what must not be there. */
function recordRequests(page) {
  const urls = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

perViewport((viewport) => {
  payTest('a guest pays by card at checkout and reaches the thank-you page', viewport, async ({ page, shot }) => {
    await cartWithAProduct(page);
    const requests = recordRequests(page);
    const who = await checkoutByCard(page);
    const cart = await cartOf(page);

    // The element is for a deferred intent of the cart's total (kept up to date as the
    // address changes it), in the shop's currency.
    const options = await elementsOptions(page);
    assert.equal(options.mode, 'payment');
    assert.equal(options.amount, Number(cart.totals.total_price));
    assert.equal(options.currency, cart.totals.currency_code.toLowerCase());
    assert.equal(options.paymentMethodCreation, 'manual');
    const [created] = await doubleCalls(page, 'elements.create');
    assert.deepEqual(created.detail.options.layout, { type: 'accordion', defaultCollapsed: false, radios: 'never', spacedAccordionItems: false });
    assert.equal(created.detail.options.fields.billingDetails.name, 'never', 'the billing form’s fields are not asked again');
    assert.ok(!requests.some((url) => url.startsWith('https://js.stripe.com/')), 'the double stood in for the provider’s script');

    await fillCard(page, CARDS.paid);
    await expectAccessible(page, `the checkout with the card form at ${viewport.width} px`);
    await shot('checkout-card');
    await placeOrder(page);
    const { orderId, key } = await orderReceived(page);
    await eventually(() => orderStatus(page, orderId, key), (status) => status === 'processing', 'the order to be paid');
    // One payment method, made with the billing details of the form.
    const methods = await doubleCalls(page, 'createPaymentMethod');
    assert.equal(methods.length, 1);
    assert.equal(methods[0].detail.params.billing_details.name, `${who.first_name} ${who.last_name}`);
    assert.equal(methods[0].detail.params.billing_details.address.postal_code, who.postcode);
  });

  payTest('a declined card shows the reason and moves the shopper to pay the order again', viewport, async ({ page, shot }) => {
    await cartWithAProduct(page);
    await checkoutByCard(page);
    await fillCard(page, CARDS.declined);
    await placeOrder(page);

    // The cart became an order waiting for payment: its own page, with the reason kept visible.
    const url = await expectURL(page, (u) => /^\/checkout\/order-pay\/\d+\/?$/.test(u.pathname), 'be the order-pay page', { timeout: 30_000 });
    const notice = page.locator('#order_review [role="alert"]').first();
    await expectTextContaining(notice, 'declined');
    await eventually(() => cartOf(page), (c) => c.items.length === 0, 'the cart to be empty');
    await expectAccessible(page, `the order-pay page after a decline at ${viewport.width} px`);
    await shot('order-pay-declined');

    // Paying for the order on its page with another card.
    await chooseCard(page);
    await fillCard(page, CARDS.paid);
    await page.getByRole('button', { name: 'Pay for order' }).click();
    const { orderId, key } = await orderReceived(page);
    assert.equal(orderId, url.pathname.split('/').filter(Boolean).pop(), 'the same order was paid');
    await eventually(() => orderStatus(page, orderId, key), (status) => status === 'processing', 'the order to be paid');
  });

  payTest('3-D Secure: completing the challenge pays the order', viewport, async ({ page }) => {
    await cartWithAProduct(page);
    await checkoutByCard(page);
    await fillCard(page, CARDS.threeDSecure);
    await placeOrder(page);
    const challenge = page.getByRole('dialog', { name: '3D Secure authentication' });
    await challenge.waitFor({ timeout: 30_000 });
    // The form stays blocked, saying so, while the shopper authenticates.
    await expectText(page.locator('form[name="checkout"] [role="status"]').filter({ hasText: 'Please wait...' }), 'Please wait...');
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    const { orderId, key } = await orderReceived(page);
    await eventually(() => orderStatus(page, orderId, key), (status) => status === 'processing', 'the order to be paid');
    const handled = await page.evaluate(() => window.location.hash);
    assert.equal(handled, '', 'the confirmation fragment was handled in place, never followed');
  });

  payTest('3-D Secure: failing the challenge shows the reason on the order-pay page', viewport, async ({ page, shot }) => {
    await cartWithAProduct(page);
    await checkoutByCard(page);
    await fillCard(page, CARDS.threeDSecure);
    await placeOrder(page);
    const challenge = page.getByRole('dialog', { name: '3D Secure authentication' });
    await challenge.waitFor({ timeout: 30_000 });
    await challenge.getByRole('button', { name: 'Fail authentication' }).click();

    await expectURL(page, (u) => /^\/checkout\/order-pay\/\d+\/?$/.test(u.pathname), 'be the order-pay page', { timeout: 30_000 });
    await expectText(page.locator('#order_review [role="alert"]').first(), AUTH_FAILED);
    await shot('order-pay-authentication-failed');

    // The same order, paid on its page after a challenge that passes.
    await chooseCard(page);
    await fillCard(page, CARDS.threeDSecure);
    await page.getByRole('button', { name: 'Pay for order' }).click();
    await page.getByRole('dialog', { name: '3D Secure authentication' }).getByRole('button', { name: 'Complete authentication' }).click();
    await orderReceived(page);
  });

  payTest('a customer saves a card at checkout and pays with it next time', viewport, async ({ page, shot }) => {
    const who = await customerLoggedIn(page, 'saver');
    await cartWithAProduct(page);
    await checkoutByCard(page, who);
    const save = cardBox(page).getByLabel(SAVE_LABEL);
    await save.check();
    await fillCard(page, CARDS.paid);
    await placeOrder(page);
    await orderReceived(page);

    const saved = await eventually(
      async () => (await restGet(page, '/account/payment-methods')).body,
      (list) => Array.isArray(list) && list.length === 1,
      'the card to be saved',
    );
    assert.equal(saved[0].last4, '4242');

    // Next time the saved card is offered first, chosen, and the order needs no new card.
    await cartWithAProduct(page);
    await openCheckout(page);
    await acceptTerms(page);
    await reviewSettled(page);
    await page.getByRole('radio', { name: CARD_TITLE, exact: true }).check();
    const savedRadio = cardBox(page).getByRole('radio', { name: /^Visa ending in 4242/ });
    await savedRadio.waitFor();
    assert.equal(await savedRadio.isChecked(), true, 'the saved card is chosen');
    await expectCount(cardBox(page).getByLabel(SAVE_LABEL), 0);
    await expectAccessible(page, `the checkout with a saved card at ${viewport.width} px`);
    await shot('checkout-saved-card');
    await placeOrder(page);
    const { orderId, key } = await orderReceived(page);
    await eventually(() => orderStatus(page, orderId, key), (status) => status === 'processing', 'the order paid with the saved card');
    assert.deepEqual(await doubleCalls(page, 'createPaymentMethod'), [], 'no new payment method was made');
  });

  payTest('a customer adds a payment method, makes it the default and deletes another', viewport, async ({ page, shot }) => {
    await customerLoggedIn(page, 'adder');
    const nav = page.getByRole('navigation', { name: 'Account pages' });
    await nav.getByRole('link', { name: 'Payment methods' }).click();
    await expectURL(page, (u) => u.pathname === '/my-account/payment-methods', 'be the payment methods page');
    await page.getByText('No saved methods found.').waitFor();
    await expectAccessible(page, `the empty payment methods page at ${viewport.width} px`);

    await page.getByRole('link', { name: 'Add payment method' }).click();
    const form = page.locator('form#add_payment_method');
    await form.getByLabel('Card number').waitFor();
    // Nothing is charged here: the element sets up a payment method instead of paying.
    assert.equal((await elementsOptions(page)).mode, 'setup');
    await fillCard(page, CARDS.paid, { scope: form });
    await expectAccessible(page, `the add payment method page at ${viewport.width} px`);
    await shot('add-payment-method');
    await form.getByRole('button', { name: 'Add payment method' }).click();
    await expectURL(page, (u) => /^\/my-account\/payment-methods\/?$/.test(u.pathname), 'be back on the payment methods page', { timeout: 30_000 });
    await page.getByText('Payment method successfully added.').waitFor();
    await expectCount(page.getByTestId('saved-payment-method'), 1);
    await expectTextContaining(page.getByTestId('saved-payment-method'), 'Visa ending in 4242');
    await expectTextContaining(page.getByTestId('saved-payment-method'), 'Expires 12/34');

    // A second card that asks for 3-D Secure while it is set up.
    await page.getByRole('link', { name: 'Add payment method' }).click();
    await form.getByLabel('Card number').waitFor();
    await fillCard(page, CARDS.threeDSecureSetup, { scope: form, expiry: '11 / 33' });
    await form.getByRole('button', { name: 'Add payment method' }).click();
    await page.getByRole('dialog', { name: '3D Secure authentication' }).getByRole('button', { name: 'Complete authentication' }).click();
    await page.getByText('Payment method successfully added.').waitFor({ timeout: 30_000 });
    await expectCount(page.getByTestId('saved-payment-method'), 2);

    const second = page.getByTestId('saved-payment-method').filter({ hasText: 'Expires 11/33' });
    await second.getByRole('button', { name: /^Make default/ }).click();
    await page.getByText('This payment method was successfully set as your default.').waitFor();
    await expectTextContaining(second, 'Default');
    const first = page.getByTestId('saved-payment-method').filter({ hasText: 'Expires 12/34' });
    await first.getByRole('button', { name: /^Delete/ }).click();
    await page.getByText('Payment method deleted.').waitFor();
    await expectCount(page.getByTestId('saved-payment-method'), 1);
    await expectAccessible(page, `the payment methods page at ${viewport.width} px`);
    await shot('payment-methods');
  });

  payTest('a customer changes the payment method of an order', viewport, async ({ page, shot }) => {
    const who = await customerLoggedIn(page, 'changer');
    await cartWithAProduct(page);
    await checkoutByCard(page, who);
    await fillCard(page, CARDS.paid);
    await placeOrder(page);
    const { orderId, key } = await orderReceived(page);

    await page.goto(`/checkout/order-pay/${orderId}/?pay_for_order=true&key=${encodeURIComponent(key)}&change_payment_method=${orderId}`);
    await page.getByRole('heading', { level: 1, name: 'Change payment method' }).waitFor();
    // Only methods that can be kept are offered; the card sets up, nothing is charged.
    await expectCount(page.getByRole('radio', { name: 'Direct bank transfer' }), 0);
    await chooseCard(page);
    assert.equal((await elementsOptions(page)).mode, 'setup');
    await fillCard(page, CARDS.paid, { expiry: '10 / 32' });
    await expectAccessible(page, `the change payment method page at ${viewport.width} px`);
    await shot('change-payment-method');
    await page.getByRole('button', { name: 'Change payment method' }).click();
    await expectURL(page, (u) => !u.pathname.startsWith('/checkout/order-pay/'), 'leave the change page for the one the shop names', { timeout: 30_000 });
    assert.equal(await orderStatus(page, orderId, key), 'processing', 'changing the method charged nothing again');
  });

  payTest(
    'a card form that fails to load says so in its box, and the order is not sent',
    viewport,
    async ({ page, shot }) => {
      await cartWithAProduct(page);
      await checkoutByCard(page);
      await expectText(cardBox(page).getByRole('alert'), LOAD_FAILED);
      await expectAccessible(page, `the checkout with a card form that failed to load at ${viewport.width} px`);
      await shot('checkout-card-load-failed');
      await placeOrder(page);
      await expectTextContaining(page.locator('.woocommerce-NoticeGroup-checkout'), INVALID_DETAILS);
      const cart = await cartOf(page);
      assert.ok(cart.items.length > 0, 'no order was placed: the cart is as it was');
    },
    { double: { failToLoad: true } },
  );

  payTest(
    'without the provider’s script the card form says it failed to load',
    viewport,
    async ({ page, context }) => {
      // No double: the storefront loads the provider's script from its official address, which fails here.
      const asked = [];
      await context.route('https://js.stripe.com/**', (route) => {
        asked.push(route.request().url());
        return route.abort('blockedbyclient');
      });
      await cartWithAProduct(page);
      await checkoutByCard(page);
      await expectText(cardBox(page).getByRole('alert'), LOAD_FAILED);
      assert.ok(asked.length > 0, 'the script was asked for at its official address');
    },
    { double: null },
  );

  // The product and cart pages offer express checkout in this shop, and load the
  // provider for it once they are interactive: express-checkout.test.mjs covers them.
  payTest('pages that take no payment load nothing of the provider', viewport, async ({ page }) => {
    const requests = recordRequests(page);
    const product = await someProduct();
    await page.goto('/');
    await page.goto('/shop');
    await addToCartVia(page, product.id, 1);
    await page.goto('/my-account');
    const providerCode = requests.filter((url) => /js\.stripe\.com|\/assets\/(payment-element|load-stripe|payment-box)-/.test(url));
    assert.deepEqual(providerCode, [], 'no payment code was fetched');
    assert.deepEqual(await doubleCalls(page, 'Stripe'), [], 'the provider was never started');
  });
});

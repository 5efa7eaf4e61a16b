// The card gateway's other payment method types, through the provider's test double
// (tests/provider-double, in front of the card emulator): which methods a billing
// country is offered and the save option of each, BLIK's code and approval, a
// redirect method there and back (each of the ten), the vouchers (Boleto, OXXO, Multibanco),
// the wallets (WeChat Pay, Cash App), the older card confirmation fragment, the Cash
// App notice, and bank debits from on hold to paid (ACH and SEPA). The browser
// runs the Stripe.js double (support/stripe-double.js) against the same provider
// double the shops use. A method is offered only in the currencies it takes, so each
// currency has its shop (EUR, USD, PLN, BRL, MXN, AUD, GBP, CAD).

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { addToCartVia, cartOf, decodeEntities } from './support/api.mjs';
import { acceptTerms, addressLocaleOf, customer, fillAddress, openCheckout, registerCustomer, restGet, reviewSettled } from './support/checkout.mjs';
import { eventually, expectCount, expectNoAxeViolations, expectText, expectTextContaining, expectURL } from './support/checks.mjs';
import { installStripeDouble } from './support/payment-emulator.mjs';
import { useProviderDouble } from './support/provider-double.mjs';
import { perViewport, SCREENSHOT_DIR, TEST_TIMEOUT_MS, useShop } from './support/shop.mjs';

const provider = await useProviderDouble();
const shopIn = (currency, methods) =>
  useShop(import.meta.url, { env: { ...provider.env, FERROSHOP_CURRENCY: currency, FERROSHOP_STRIPE_METHODS: methods.join(',') } });
const shops = {
  EUR: shopIn('EUR', ['card', 'ideal', 'bancontact', 'sepa_debit', 'p24', 'eps', 'giropay', 'sofort', 'multibanco', 'klarna', 'alipay', 'wechat_pay']),
  USD: shopIn('USD', ['card', 'cashapp', 'wechat_pay', 'affirm', 'afterpay_clearpay', 'alipay', 'us_bank_account']),
  PLN: shopIn('PLN', ['card', 'blik', 'p24']),
  BRL: shopIn('BRL', ['card', 'boleto']),
  MXN: shopIn('MXN', ['card', 'oxxo']),
  AUD: shopIn('AUD', ['card', 'au_becs_debit', 'afterpay_clearpay']),
  GBP: shopIn('GBP', ['card', 'bacs_debit']),
  CAD: shopIn('CAD', ['card', 'acss_debit']),
};

const TITLES = {
  card: 'Credit / Debit Card',
  ideal: 'iDEAL',
  bancontact: 'Bancontact',
  sepa_debit: 'SEPA Direct Debit',
  p24: 'Przelewy24',
  eps: 'EPS',
  giropay: 'giropay',
  sofort: 'Sofort',
  multibanco: 'Multibanco',
  klarna: 'Klarna',
  alipay: 'Alipay',
  wechat_pay: 'WeChat Pay',
  cashapp: 'Cash App Pay',
  affirm: 'Affirm',
  afterpay_clearpay: 'Clearpay / Afterpay',
  blik: 'BLIK',
  boleto: 'Boleto',
  oxxo: 'OXXO',
  us_bank_account: 'ACH Direct Debit',
  au_becs_debit: 'BECS Direct Debit',
  bacs_debit: 'Bacs Direct Debit',
  acss_debit: 'Pre-authorized debit',
};
/** The spec's methods whose save option never shows. */
const SAVE_HIDDEN = ['alipay', 'affirm', 'afterpay_clearpay', 'au_becs_debit', 'boleto', 'eps', 'giropay', 'multibanco', 'p24', 'oxxo', 'wechat_pay'];
const SAVE_LABEL = 'Save payment information to my account for future purchases.';
const BLIK_INVALID = 'BLIK Code is invalid';
const PAYMENT_PROBLEM = 'There was a problem processing the payment. Please refresh the page to try again.';
const INVALID_WALLET = 'Invalid wallet payment type, please try again or use an alternative method.';
const AUTH_FAILED = 'We are unable to authenticate your payment method. Please choose a different payment method and try again.';
const CASH_APP_NOTICE = 'Please note that, depending on your account and transaction history, Cash App Pay may reject your transaction due to its amount.';
const PASSWORD = 'Correct-Horse-42';

/** A billing address in each country the tests bill to. */
const PLACES = {
  US: { country: 'US', city: 'San Francisco', state: 'CA', postcode: '94110' },
  NL: { country: 'NL', city: 'Amsterdam', state: '', postcode: '1011 AA' },
  BE: { country: 'BE', city: 'Brussels', state: '', postcode: '1000' },
  DE: { country: 'DE', city: 'Berlin', state: '', postcode: '10115' },
  AT: { country: 'AT', city: 'Wien', state: '', postcode: '1010' },
  PL: { country: 'PL', city: 'Warszawa', state: '', postcode: '00-001' },
  PT: { country: 'PT', city: 'Lisboa', state: '', postcode: '1000-001' },
  BR: { country: 'BR', city: 'São Paulo', state: 'SP', postcode: '01310-100' },
  MX: { country: 'MX', city: 'Ciudad de México', state: '', postcode: '06600' },
  AU: { country: 'AU', city: 'Sydney', state: 'NSW', postcode: '2000' },
  GB: { country: 'GB', city: 'Bath', state: '', postcode: 'BA1 1AA' },
  CA: { country: 'CA', city: 'Toronto', state: 'ON', postcode: 'M5V 2T6' },
};

/** Runs `fn` with the provider emptied first and the Stripe.js double in the context. */
const withDouble = (shop, fn) => async (run) => {
  await provider.connectShop(shop.baseURL);
  await provider.current.reset();
  await installStripeDouble(run.context, provider.current);
  await fn(run);
};

/** A browser test on `shop`, with the provider emptied first and the Stripe.js double in the context. */
function payTest(shop, name, viewport, fn) {
  shop.test(name, viewport, withDouble(shop, fn));
}

async function someProduct(shop) {
  const product = (await shop.api.allProducts()).find(
    (p) => p.type === 'simple' && p.is_purchasable && p.is_in_stock && p.add_to_cart.minimum <= 1 && !p.sold_individually,
  );
  assert.ok(product, 'the demo shop has a simple product in stock');
  return { ...product, name: decodeEntities(product.name) };
}

async function cartWithAProduct(shop, page) {
  const product = await someProduct(shop);
  await addToCartVia(page, product.id, 1);
  return product;
}

/** A shopper billed in `country` (its state, when the country has a list of them, is one of its own). */
async function shopperIn(page, country, tag) {
  const place = PLACES[country];
  const who = customer(tag, place);
  if (place.state === '') {
    const locale = await addressLocaleOf(page);
    const states = locale.states?.[country];
    if (states && Object.keys(states).length > 0) who.state = Object.keys(states)[0];
  }
  return who;
}

/** The checkout with the billing address filled in `country`. */
async function checkoutIn(page, country, tag = 'pm') {
  await openCheckout(page);
  const who = await shopperIn(page, country, tag);
  await fillAddress(page, 'billing', who);
  await acceptTerms(page);
  await reviewSettled(page);
  return who;
}

/** Only the billing country changes; the order review refreshes for it. */
async function switchCountry(page, country) {
  await page.locator('#billing_country').selectOption(country);
  await reviewSettled(page);
}

const methodRadio = (page, type) => page.getByRole('radio', { name: TITLES[type], exact: true });
const methodBox = (page, type) => page.locator(`.payment_box.payment_method_${type === 'card' ? 'stripe' : `stripe_${type}`}`);
const saveBox = (page, type) => methodBox(page, type).getByLabel(SAVE_LABEL);

/** The payment methods the checkout offers, by gateway id, in order. */
const offeredGateways = (page) => page.locator('input[name="payment_method"]').evaluateAll((inputs) => inputs.map((input) => input.value));

/** Chooses a method and waits for its element (the double's form or its note). */
async function chooseMethod(page, type) {
  await methodRadio(page, type).check();
  await methodBox(page, type).getByTestId('payment-element').waitFor();
}

async function placeOrder(page) {
  await reviewSettled(page);
  await page.locator('#place_order').click();
}

/** The Store API's answer to the order call the page makes next (its `payment_result`). */
function nextCheckoutAnswer(page) {
  return page
    .waitForResponse((res) => res.request().method() === 'POST' && /\/wc\/store\/v1\/checkout(\/\d+)?$/.test(new URL(res.url()).pathname), { timeout: 30_000 })
    .then((res) => res.json());
}

/** Waits for the thank-you page; returns { orderId, key, url }. */
async function orderReceived(page) {
  const url = await expectURL(page, (u) => /^\/checkout\/order-received\/\d+\/?$/.test(u.pathname), 'be the order-received page', { timeout: 30_000 });
  await page.getByText('Thank you. Your order has been received.').waitFor({ timeout: 15_000 });
  return { orderId: url.pathname.split('/').filter(Boolean).pop(), key: url.searchParams.get('key'), url };
}

async function orderOf(page, orderId, key) {
  const { status, body } = await restGet(page, `/orders/${orderId}?key=${encodeURIComponent(key)}`);
  assert.equal(status, 200, `the order ${orderId} can be read with its key`);
  return body;
}

/** Waits until the order's status is `wanted` (the webhooks land in their own time). */
function orderBecomes(page, orderId, key, wanted) {
  return eventually(
    async () => (await orderOf(page, orderId, key)).status,
    (status) => status === wanted,
    `order ${orderId} to be ${wanted}`,
    { timeout: 20_000, interval: 200 },
  );
}

/** The double's record of what the storefront asked of the provider. */
const doubleCalls = (page, name) => page.evaluate((wanted) => (window.__stripeDouble?.calls ?? []).filter((call) => call.name === wanted), name);

/** axe-core over the page from its top (the sticky header covers what is scrolled under it). */
async function expectAccessible(page, label) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectNoAxeViolations(page, label);
}

/** A screenshot of what the window shows (a dialog over the page), beside the full-page ones. */
const windowShot = (page, label, viewport) => page.screenshot({ path: path.join(SCREENSHOT_DIR, `${label}-${viewport.width}px.png`), animations: 'disabled' });

const onCheckout = (url) => /^\/checkout\/?$/.test(url.pathname);

/** The shop's notice of a failed checkout (its error group) or of a payment that came back. */
const checkoutErrors = (page) => page.locator('.woocommerce-NoticeGroup-checkout, [data-testid="payment-return-notice"]');

async function logIn(page, email) {
  await page.goto('/my-account');
  const login = page.getByRole('form', { name: 'Login' });
  await login.getByLabel('Username or email address').fill(email);
  await login.locator('input[name="password"]').fill(PASSWORD);
  await login.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation', { name: 'Account pages' }).waitFor();
}

async function customerLoggedIn(shop, page, tag) {
  const who = customer(tag);
  await registerCustomer(shop.baseURL, { email: who.email, password: PASSWORD, first_name: who.first_name, last_name: who.last_name });
  await logIn(page, who.email);
  return who;
}

/** `https://shop/x` → `https%3A%2F%2Fshop%2Fx`, every byte but the unreserved ones, as the shop encodes return URLs. */
const encodePart = (text) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

perViewport((viewport) => {
  const EUR = shops.EUR;
  const USD = shops.USD;
  const PLN = shops.PLN;

  payTest(EUR, 'the billing country shows and hides the methods limited to countries, and drops a chosen one it hides', viewport, async ({ page, shot }) => {
    await cartWithAProduct(EUR, page);
    await checkoutIn(page, 'NL', 'countries');
    const gateway = (type) => (type === 'card' ? 'stripe' : `stripe_${type}`);
    const offered = async () => (await offeredGateways(page)).filter((id) => id.startsWith('stripe'));
    const expectOffered = (types) =>
      eventually(offered, (ids) => JSON.stringify(ids) === JSON.stringify(types.map(gateway)), `the methods offered to be ${types.join(', ')}`);

    // The shop's order of methods, each where it is offered; alipay and wechat_pay everywhere.
    await expectOffered(['card', 'ideal', 'sepa_debit', 'sofort', 'klarna', 'alipay', 'wechat_pay']);
    await chooseMethod(page, 'ideal');
    await expectAccessible(page, `the checkout with iDEAL chosen at ${viewport.width} px`);
    await shot('methods-nl-ideal');

    await switchCountry(page, 'BE');
    await expectOffered(['card', 'bancontact', 'sepa_debit', 'sofort', 'klarna', 'alipay', 'wechat_pay']);
    await expectCount(methodRadio(page, 'ideal'), 0);
    // iDEAL went with the Netherlands: the first method is chosen instead.
    assert.equal(await methodRadio(page, 'card').isChecked(), true, 'the card is chosen once iDEAL is gone');
    await expectCount(page.locator('input[name="payment_method"]:checked'), 1);

    await switchCountry(page, 'PL');
    await expectOffered(['card', 'sepa_debit', 'p24', 'klarna', 'alipay', 'wechat_pay']);
    await chooseMethod(page, 'p24');
    await switchCountry(page, 'AT');
    await expectOffered(['card', 'sepa_debit', 'eps', 'sofort', 'klarna', 'alipay', 'wechat_pay']);
    assert.equal(await methodRadio(page, 'card').isChecked(), true, 'the card is chosen once Przelewy24 is gone');
    await switchCountry(page, 'DE');
    await expectOffered(['card', 'sepa_debit', 'giropay', 'sofort', 'klarna', 'alipay', 'wechat_pay']);
    await switchCountry(page, 'PT');
    await expectOffered(['card', 'sepa_debit', 'multibanco', 'klarna', 'alipay', 'wechat_pay']);
    await chooseMethod(page, 'sepa_debit');
    await switchCountry(page, 'JP');
    await expectOffered(['card', 'alipay', 'wechat_pay']);
    assert.equal(await methodRadio(page, 'card').isChecked(), true, 'the card is chosen once SEPA Direct Debit is gone');
    // A method the country keeps stays chosen.
    await chooseMethod(page, 'wechat_pay');
    await switchCountry(page, 'US');
    await expectOffered(['card', 'klarna', 'alipay', 'wechat_pay']);
    assert.equal(await methodRadio(page, 'wechat_pay').isChecked(), true, 'WeChat Pay stays chosen');
  });

  /** Each method offered in `country`: whether its save option shows, as `shown(type)` says. */
  async function expectSaveOptions(page, country, types, shown) {
    await switchCountry(page, country);
    for (const type of types) {
      await chooseMethod(page, type);
      await expectCount(saveBox(page, type), shown(type) ? 1 : 0, { message: `${type}` });
    }
  }
  const EUR_BY_COUNTRY = [
    ['NL', ['card', 'ideal', 'sepa_debit', 'sofort', 'klarna', 'alipay', 'wechat_pay']],
    ['BE', ['bancontact']],
    ['PL', ['p24']],
    ['AT', ['eps']],
    ['DE', ['giropay']],
    ['PT', ['multibanco']],
  ];
  /** Kept methods only: not the spec's list, and only what the provider can keep (BLIK and Klarna cannot). */
  const savable = (type) => !SAVE_HIDDEN.includes(type) && !['klarna', 'blik'].includes(type);

  payTest(EUR, 'the save option: never for a guest, then for each method that can be kept once the guest creates an account', viewport, async ({ page, shot }) => {
    await cartWithAProduct(EUR, page);
    await checkoutIn(page, 'NL', 'save-guest');
    for (const [country, types] of EUR_BY_COUNTRY) await expectSaveOptions(page, country, types, () => false);

    await page.getByLabel('Create an account?').check();
    for (const [country, types] of EUR_BY_COUNTRY) await expectSaveOptions(page, country, types, savable);
    await switchCountry(page, 'NL');
    await chooseMethod(page, 'sepa_debit');
    await expectAccessible(page, `the checkout with SEPA and its save option at ${viewport.width} px`);
    await shot('save-option-guest-account-sepa');
    // Unticked again: gone again.
    await page.getByLabel('Create an account?').uncheck();
    await expectCount(saveBox(page, 'sepa_debit'), 0);
  });

  payTest(EUR, 'the save option for a logged-in customer: shown for each method that can be kept, hidden for the others', viewport, async ({ page }) => {
    await customerLoggedIn(EUR, page, 'save-customer');
    await cartWithAProduct(EUR, page);
    await checkoutIn(page, 'NL', 'save-customer');
    for (const [country, types] of EUR_BY_COUNTRY) await expectSaveOptions(page, country, types, savable);
  });

  payTest(USD, 'the save option in dollars: Cash App and ACH can be kept, Affirm, Afterpay, Alipay and WeChat Pay not', viewport, async ({ page }) => {
    await customerLoggedIn(USD, page, 'save-usd');
    await cartWithAProduct(USD, page);
    await checkoutIn(page, 'US', 'save-usd');
    await expectSaveOptions(page, 'US', ['card', 'cashapp', 'wechat_pay', 'affirm', 'afterpay_clearpay', 'alipay', 'us_bank_account'], savable);
  });

  payTest(shops.AUD, 'the save option in Australian dollars: never for BECS Direct Debit', viewport, async ({ page }) => {
    await customerLoggedIn(shops.AUD, page, 'save-aud');
    await cartWithAProduct(shops.AUD, page);
    await checkoutIn(page, 'AU', 'save-aud');
    await expectSaveOptions(page, 'AU', ['card', 'au_becs_debit', 'afterpay_clearpay'], savable);
  });

  payTest(PLN, 'BLIK: a code that is not six digits places nothing; a good one approved in the bank’s app pays the order', viewport, async ({ page, shot }) => {
    await cartWithAProduct(PLN, page);
    await checkoutIn(page, 'PL', 'blik');
    await chooseMethod(page, 'blik');
    const code = methodBox(page, 'blik').getByLabel(/BLIK Code/);
    await code.fill('12345');
    await placeOrder(page);
    await expectTextContaining(checkoutErrors(page), BLIK_INVALID);
    assert.ok((await cartOf(page)).items.length > 0, 'no order was placed: the cart is as it was');
    await code.fill('12a456');
    await placeOrder(page);
    await expectTextContaining(checkoutErrors(page), BLIK_INVALID);
    assert.ok((await cartOf(page)).items.length > 0, 'still no order');
    await expectAccessible(page, `the checkout with a BLIK code refused at ${viewport.width} px`);
    await shot('blik-invalid');

    await code.fill('123456');
    await placeOrder(page);
    const dialog = page.getByTestId('blik-authorization').getByRole('dialog', { name: 'Approve the payment in your banking app' });
    await dialog.waitFor({ timeout: 30_000 });
    await expectNoAxeViolations(page, `the BLIK approval dialog at ${viewport.width} px`);
    await windowShot(page, 'blik-dialog', viewport);
    await dialog.getByTestId('blik-approve').click();
    const { orderId, key } = await orderReceived(page);
    await orderBecomes(page, orderId, key, 'processing');
    // Asked once, approved once: the invalid codes never reached the provider.
    assert.deepEqual((await doubleCalls(page, 'blik-answered')).map((call) => call.detail.approved), [true]);
  });

  /** How the provider's page names a method, where it differs from the shop's title. */
  const PROVIDER_TITLES = { afterpay_clearpay: 'Afterpay / Clearpay' };
  /** Redirect methods whose payment is confirmed after the shopper is back (Sofort's bank transfer). */
  const SETTLES_LATER = new Set(['sofort']);
  /** Every redirect method: the shop, the billing country it is offered in. */
  const REDIRECTS = [
    ['ideal', EUR, 'NL'],
    ['bancontact', EUR, 'BE'],
    ['eps', EUR, 'AT'],
    ['giropay', EUR, 'DE'],
    ['sofort', EUR, 'DE'],
    ['klarna', EUR, 'NL'],
    ['alipay', EUR, 'NL'],
    ['p24', PLN, 'PL'],
    ['affirm', USD, 'US'],
    ['afterpay_clearpay', USD, 'US'],
  ];
  for (const [type, shop, country] of REDIRECTS) {
    payTest(shop, `${TITLES[type]}: to the provider’s page and back to the thank-you page, paid once the webhook lands`, viewport, async ({ page, shot }) => {
      const first = type === 'ideal';
      await cartWithAProduct(shop, page);
      await checkoutIn(page, country, type);
      await chooseMethod(page, type);
      await expectTextContaining(methodBox(page, type), 'you will be taken to complete the payment');
      await placeOrder(page);
      // The provider's authorisation page, away from the shop.
      const bank = await expectURL(page, (u) => u.origin === provider.current.baseURL && u.pathname.startsWith('/_double/authorize/'), 'be the provider’s page', { timeout: 30_000 });
      await page.getByRole('button', { name: 'Authorize test payment' }).waitFor();
      await expectTextContaining(page.locator('h1'), PROVIDER_TITLES[type] ?? TITLES[type]);
      if (first) {
        await expectNoAxeViolations(page, `the provider's ${type} page at ${viewport.width} px`);
        await shot(`${type}-provider-page`);
      }
      await page.getByRole('button', { name: 'Authorize test payment' }).click();

      const { orderId, key, url } = await orderReceived(page);
      const intent = bank.pathname.split('/').pop();
      assert.equal(url.searchParams.get('payment_intent'), intent);
      if (SETTLES_LATER.has(type)) {
        // The bank confirms the transfer days later: the order waits on hold until it does.
        assert.equal(url.searchParams.get('redirect_status'), 'processing');
        await orderBecomes(page, orderId, key, 'on-hold');
        await provider.current.succeed(intent);
      } else {
        assert.equal(url.searchParams.get('redirect_status'), 'succeeded');
      }
      await orderBecomes(page, orderId, key, 'processing');
      const order = await orderOf(page, orderId, key);
      assert.equal(order.payment_method, `stripe_${type}`);
      await expectCount(page.getByText('Thank you. Your order has been received.'), 1);
      if (first) await shot(`${type}-order-received`);
      assert.equal((await cartOf(page)).items.length, 0, 'the cart became the order');
    });
  }

  payTest(EUR, 'iDEAL refused at the bank: the thank-you page says so, and the order is paid again on its payment page', viewport, async ({ page, shot }) => {
    await cartWithAProduct(EUR, page);
    await checkoutIn(page, 'NL', 'ideal-refused');
    await chooseMethod(page, 'ideal');
    await placeOrder(page);
    await expectURL(page, (u) => u.origin === provider.current.baseURL, 'be the provider’s page', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Fail test payment' }).click();

    const url = await expectURL(page, (u) => /^\/checkout\/order-received\/\d+\/?$/.test(u.pathname), 'be back at the shop', { timeout: 30_000 });
    assert.equal(url.searchParams.get('redirect_status'), 'failed');
    const orderId = url.pathname.split('/').filter(Boolean).pop();
    const key = url.searchParams.get('key');
    await expectTextContaining(page.getByRole('alert').first(), 'has declined your transaction');
    await orderBecomes(page, orderId, key, 'failed');
    await expectAccessible(page, `the refused iDEAL payment at ${viewport.width} px`);
    await shot('ideal-refused');

    await page.getByRole('link', { name: 'Pay', exact: true }).click();
    await expectURL(page, (u) => new RegExp(`^/checkout/order-pay/${orderId}/?$`).test(u.pathname), 'be the order-pay page');
    await chooseMethod(page, 'ideal');
    await page.getByRole('button', { name: 'Pay for order' }).click();
    await expectURL(page, (u) => u.origin === provider.current.baseURL, 'be the provider’s page again', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Authorize test payment' }).click();
    const again = await orderReceived(page);
    assert.equal(again.orderId, orderId, 'the same order, not a second one');
    await orderBecomes(page, orderId, key, 'processing');
    // The refused attempt and the paid one: two intents for the order, one of them paid.
    const { data: events } = await provider.current.get('/v1/events?type=payment_intent.created&limit=100');
    const intents = events.map((event) => event.data.object).filter((object) => object.metadata?.order_id === orderId);
    assert.equal(intents.length, 2, 'one intent per attempt');
    const statuses = await Promise.all(intents.map(async (intent) => (await provider.current.get(`/v1/payment_intents/${intent.id}`)).status));
    assert.deepEqual(statuses.filter((status) => status === 'succeeded'), ['succeeded'], 'paid once');
  });

  /** Places an order with a voucher method; the dialog shown and closed; on hold. */
  async function voucherOrder(shop, page, shot, type, country, { fill } = {}) {
    await cartWithAProduct(shop, page);
    await checkoutIn(page, country, type);
    await chooseMethod(page, type);
    if (fill) await fill(methodBox(page, type));
    const answer = nextCheckoutAnswer(page);
    await placeOrder(page);
    const { payment_result: result, order_id: orderId } = await answer;
    assert.equal(result.payment_status, 'pending');
    assert.match(result.redirect_url, new RegExp(`#wc-stripe-voucher-${orderId}:${type}:pi_\\w+_secret_\\w+:http`));
    const voucher = page.getByTestId('payment-voucher').getByRole('dialog');
    await voucher.waitFor({ timeout: 30_000 });
    await expectNoAxeViolations(page, `the ${type} voucher at ${viewport.width} px`);
    await windowShot(page, `voucher-${type}`, viewport);
    await voucher.getByTestId('payment-voucher-close').click();
    const { orderId: received, key } = await orderReceived(page);
    assert.equal(received, String(orderId));
    await orderBecomes(page, received, key, 'on-hold');
    return { orderId: received, key, redirect: result.redirect_url };
  }

  payTest(shops.BRL, 'Boleto: the voucher shown and closed leads to the thank-you page, the order on hold', viewport, async ({ page, shot }) => {
    const { redirect } = await voucherOrder(shops.BRL, page, shot, 'boleto', 'BR', {
      fill: async (box) => {
        await expectCount(box.getByLabel(SAVE_LABEL), 0);
        await box.getByLabel('CPF / CNPJ').fill('00000000000');
      },
    });
    // The same voucher in a checkout's address, with a return URL of another site and no
    // order page to fall back on: shown, then the problem said.
    await cartWithAProduct(shops.BRL, page);
    const fragment = redirect.slice(redirect.indexOf('#')).replace(/:[^:]+$/, `:${encodePart('https://elsewhere.example/thanks')}`);
    await page.goto(`/checkout/${fragment}`);
    const voucher = page.getByTestId('payment-voucher').getByRole('dialog');
    await voucher.waitFor({ timeout: 30_000 });
    assert.equal(await page.evaluate(() => window.location.hash), '', 'the fragment left the address at once');
    await voucher.getByTestId('payment-voucher-close').click();
    await expectText(page.getByTestId('payment-return-notice'), PAYMENT_PROBLEM);
    await expectURL(page, onCheckout, 'stay on the checkout');
    await shot('voucher-unusable-return');
  });

  payTest(shops.MXN, 'OXXO: the voucher shown and closed leads to the thank-you page, the order on hold', viewport, async ({ page, shot }) => {
    await voucherOrder(shops.MXN, page, shot, 'oxxo', 'MX', { fill: (box) => expectCount(box.getByLabel(SAVE_LABEL), 0) });
  });

  payTest(EUR, 'Multibanco: the voucher shown and closed leads to the thank-you page, the order on hold', viewport, async ({ page, shot }) => {
    await voucherOrder(EUR, page, shot, 'multibanco', 'PT');
  });

  /** Places an order with a wallet; resolves with the order call's answer once its dialog is up. */
  async function walletOrder(page, type) {
    await cartWithAProduct(USD, page);
    await checkoutIn(page, 'US', type);
    await chooseMethod(page, type);
    const answer = nextCheckoutAnswer(page);
    await placeOrder(page);
    const placed = await answer;
    assert.match(placed.payment_result.redirect_url, new RegExp(`#wc-stripe-wallet-${placed.order_id}:${type}:payment_intent:pi_\\w+_secret_\\w+:[^:]+:\\w+$`));
    const dialog = page.getByTestId('wallet-authorization').getByRole('dialog', { name: TITLES[type] });
    await dialog.waitFor({ timeout: 30_000 });
    return { placed, dialog };
  }

  for (const type of ['wechat_pay', 'cashapp']) {
    payTest(USD, `${TITLES[type]}: authorized in the app pays the order; failed says why and stays`, viewport, async ({ page, shot }) => {
      const { dialog } = await walletOrder(page, type);
      await expectNoAxeViolations(page, `the ${type} dialog at ${viewport.width} px`);
      await windowShot(page, `wallet-${type}`, viewport);
      await dialog.getByTestId('wallet-authorize').click();
      const { orderId, key } = await orderReceived(page);
      await orderBecomes(page, orderId, key, 'processing');

      const second = await walletOrder(page, type);
      await second.dialog.getByTestId('wallet-fail').click();
      // The cart became the order: it is paid again on its own page, the reason shown there.
      await expectURL(page, (u) => new RegExp(`^/checkout/order-pay/${second.placed.order_id}/?$`).test(u.pathname) && u.hash === '', 'be the order-pay page, the fragment gone', { timeout: 30_000 });
      await expectTextContaining(page.locator('#order_review [role="alert"]').first(), AUTH_FAILED, { timeout: 15_000 });
      await shot(`wallet-${type}-failed`);
      const order = await orderOf(page, second.placed.order_id, second.placed.order_key);
      assert.ok(order.status !== 'processing', `the failed ${type} payment did not pay order ${second.placed.order_id} (${order.status})`);
    });
  }

  payTest(USD, 'a wallet fragment of a wallet the shop does not know says so', viewport, async ({ page, shot }) => {
    await cartWithAProduct(USD, page);
    const back = encodePart(`${USD.baseURL}/checkout/order-received/1/?key=wc_order_x`);
    await page.goto(`/checkout/#wc-stripe-wallet-1:paypal:payment_intent:pi_123abc_secret_456def:${back}:abc123`);
    await expectText(page.getByTestId('payment-return-notice'), INVALID_WALLET);
    assert.equal(await page.evaluate(() => window.location.hash), '', 'the fragment left the address');
    await expectAccessible(page, `the checkout with the wallet-type error at ${viewport.width} px`);
    await shot('wallet-invalid-type');
  });

  /** A card payment waiting for 3-D Secure, made at the provider as the original's older flow did. */
  async function intentNeedingAuthentication() {
    const method = await provider.current.post('/v1/payment_methods', { type: 'card', 'card[number]': '4000000000003220', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' });
    const intent = await provider.current.post('/v1/payment_intents', { amount: '2500', currency: 'usd', payment_method: method.id, confirm: 'true' });
    assert.equal(intent.status, 'requires_action', 'the test card asks for 3-D Secure');
    return intent;
  }

  payTest(USD, 'the older confirmation fragment: 3-D Secure passed goes to its return URL, failed says why', viewport, async ({ page, shot }) => {
    await cartWithAProduct(USD, page);
    const paid = await intentNeedingAuthentication();
    const back = `${USD.baseURL}/cart/?legacy=paid`;
    await page.goto(`/checkout/#confirm-pi-${paid.client_secret}:${encodePart(back)}`);
    const challenge = page.getByRole('dialog', { name: '3D Secure authentication' });
    await challenge.waitFor({ timeout: 30_000 });
    await expectNoAxeViolations(page, `the 3-D Secure challenge over the checkout at ${viewport.width} px`);
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    await expectURL(page, (u) => u.pathname === '/cart/' && u.searchParams.get('legacy') === 'paid', 'be the return URL');
    assert.equal((await provider.current.get(`/v1/payment_intents/${paid.id}`)).status, 'succeeded');

    const refused = await intentNeedingAuthentication();
    const reported = page.waitForRequest((request) => request.url().includes('legacy=refused') && new URL(request.url()).searchParams.has('is_ajax'), { timeout: 15_000 });
    await page.goto(`/checkout/#confirm-pi-${refused.client_secret}:${encodePart(`${USD.baseURL}/cart/?legacy=refused`)}`);
    await page.getByRole('dialog', { name: '3D Secure authentication' }).getByRole('button', { name: 'Fail authentication' }).click();
    await expectText(page.getByTestId('payment-return-notice'), AUTH_FAILED);
    await reported;
    await expectURL(page, (u) => onCheckout(u) && u.hash === '', 'stay on the checkout');
    await shot('legacy-confirm-failed');
  });

  payTest(USD, 'the Cash App notice: above USD 2,000.00 with Cash App chosen, gone with another method, never at or below it', viewport, async ({ page, shot }) => {
    const product = await someProduct(USD);
    const price = Number(product.prices.price);
    // Enough of it for the total to pass 200000 minor units.
    const quantity = Math.floor(200_000 / price) + 1;
    await addToCartVia(page, product.id, quantity);
    await checkoutIn(page, 'US', 'cashapp-notice');
    const total = Number((await cartOf(page)).totals.total_price);
    assert.ok(total > 200_000, `the total ${total} is above the threshold`);
    const notice = methodBox(page, 'cashapp').getByText(CASH_APP_NOTICE);
    assert.equal(await notice.isVisible(), false, 'no notice before Cash App is chosen');
    await chooseMethod(page, 'cashapp');
    await notice.waitFor();
    await expectAccessible(page, `the checkout with the Cash App notice at ${viewport.width} px`);
    await shot('cashapp-notice');
    // Another method: the notice goes with Cash App's box (shut and inert).
    await chooseMethod(page, 'card');
    await notice.waitFor({ state: 'hidden' });
    assert.equal(await page.getByText(CASH_APP_NOTICE).isVisible(), false, 'no notice anywhere');
    await chooseMethod(page, 'cashapp');
    await notice.waitFor();

    // Down to at most the threshold: no notice.
    const cart = await cartOf(page);
    // Taxes and shipping come on top of the price: well under, by what one item costs in all.
    const below = Math.floor((0.9 * 200_000 * quantity) / total);
    const res = await page.request.post('/wp-json/wc/store/v1/cart/update-item', {
      data: { key: cart.items[0].key, quantity: below },
      headers: { Nonce: (await page.request.get('/wp-json/wc/store/v1/cart')).headers().nonce },
    });
    assert.equal(res.status(), 200, 'the quantity is changed');
    await checkoutIn(page, 'US', 'cashapp-notice');
    const lower = Number((await cartOf(page)).totals.total_price);
    assert.ok(lower <= 200_000, `the total ${lower} is at most the threshold`);
    await chooseMethod(page, 'cashapp');
    await expectCount(notice, 0);
  });

  /**
   * Places an order paid by a bank debit: the order waits on hold while the debit runs,
   * and is paid once the bank's answer (the double's `succeed`) reaches the shop.
   */
  async function bankDebitOrder(page, shot, type, fill) {
    const box = methodBox(page, type);
    await fill(box);
    await expectAccessible(page, `the checkout with ${type} at ${viewport.width} px`);
    await shot(`bank-debit-${type}`);
    const answer = nextCheckoutAnswer(page);
    await placeOrder(page);
    const placed = await answer;
    const landed = await expectURL(page, (u) => /^\/checkout\/order-(received|pay)\/\d+\/?$/.test(u.pathname), 'leave the checkout', { timeout: 30_000 });
    if (landed.pathname.includes('/order-pay/')) {
      assert.fail(`the ${type} order was refused: ${(await page.locator('#order_review [role="alert"]').first().textContent()) ?? ''}`);
    }
    const { orderId, key } = await orderReceived(page);
    assert.equal(orderId, String(placed.order_id));
    await orderBecomes(page, orderId, key, 'on-hold');
    const { data: events } = await provider.current.get('/v1/events?type=payment_intent.created&limit=100');
    const intent = events.map((event) => event.data.object).find((object) => object.metadata?.order_id === orderId);
    assert.ok(intent, `the provider made the intent of order ${orderId}`);
    assert.equal((await provider.current.get(`/v1/payment_intents/${intent.id}`)).status, 'processing');
    await provider.current.succeed(intent.id);
    await orderBecomes(page, orderId, key, 'processing');
  }

  payTest(USD, 'ACH Direct Debit: the order on hold while the debit runs, processing once it succeeds', viewport, async ({ page, shot }) => {
    await cartWithAProduct(USD, page);
    await checkoutIn(page, 'US', 'ach');
    await chooseMethod(page, 'us_bank_account');
    await bankDebitOrder(page, shot, 'us_bank_account', async (box) => {
      await expectTextContaining(box.getByTestId('payment-element-terms'), 'you authorise');
      await box.getByLabel('Routing number').fill('110000000');
      await box.getByLabel('Account number').fill('000123456789');
    });
  });

  payTest(
    EUR,
    'SEPA Direct Debit: the mandate shown, the order on hold while the debit runs, processing once it succeeds',
    viewport,
    async ({ page, shot }) => {
      await cartWithAProduct(EUR, page);
      await checkoutIn(page, 'DE', 'sepa');
      await chooseMethod(page, 'sepa_debit');
      await bankDebitOrder(page, shot, 'sepa_debit', async (box) => {
        // The mandate the shopper agrees to is in the element's box.
        await expectTextContaining(box.getByTestId('payment-element-terms'), 'you authorise');
        await box.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
      });
    },
  );

  payTest(shops.AUD, 'BECS Direct Debit: the agreement shown, the order on hold while the debit runs, processing once it succeeds', viewport, async ({ page, shot }) => {
    await cartWithAProduct(shops.AUD, page);
    await checkoutIn(page, 'AU', 'becs');
    await chooseMethod(page, 'au_becs_debit');
    await bankDebitOrder(page, shot, 'au_becs_debit', async (box) => {
      await expectTextContaining(box.getByTestId('payment-element-terms'), 'Direct Debit Request');
      await box.getByLabel('BSB').fill('000-000');
      await box.getByLabel('Account number').fill('000123456');
    });
  });

  payTest(shops.GBP, 'Bacs Direct Debit: the order on hold while the debit runs, processing once it succeeds', viewport, async ({ page, shot }) => {
    await cartWithAProduct(shops.GBP, page);
    await checkoutIn(page, 'GB', 'bacs');
    await chooseMethod(page, 'bacs_debit');
    await bankDebitOrder(page, shot, 'bacs_debit', async (box) => {
      await box.getByLabel('Sort code').fill('10-88-00');
      await box.getByLabel('Account number').fill('00012345');
    });
  });

  payTest(shops.CAD, 'Pre-authorized debit: the order on hold while the debit runs, processing once it succeeds', viewport, async ({ page, shot }) => {
    await cartWithAProduct(shops.CAD, page);
    await checkoutIn(page, 'CA', 'acss');
    await chooseMethod(page, 'acss_debit');
    await bankDebitOrder(page, shot, 'acss_debit', async (box) => {
      await box.getByLabel('Transit number').fill('11000');
      await box.getByLabel('Institution number').fill('000');
      await box.getByLabel('Account number').fill('000123456789');
    });
  });
});

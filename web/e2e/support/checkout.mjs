// Checkout and account helpers for the browser tests: the page settings the server
// embedded, Ferroshop's own calls (address rules, orders, accounts) with the page's
// cookies, and filling the checkout form the way a shopper does.

import assert from 'node:assert/strict';
import { STORE_API } from './api.mjs';
import { expectAttribute, expectTextContaining, waitFor } from './checks.mjs';

export const REST_API = '/wp-json/ferroshop/v1';

/** A customer for the forms; `tag` keeps e-mail addresses unique per test and viewport. */
export function customer(tag, overrides = {}) {
  const stamp = `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    company: '',
    country: 'US',
    address_1: '1 Main St',
    address_2: '',
    city: 'San Francisco',
    state: 'CA',
    postcode: '94110',
    phone: '555 010 0100',
    email: `ada.${stamp}@example.test`,
    ...overrides,
  };
}

/** The settings the server embedded in the page (`#ferroshop-settings`). */
export async function settingsOf(page) {
  return page.evaluate(() => JSON.parse(document.getElementById('ferroshop-settings')?.textContent || '{}'));
}

/** GET on Ferroshop's own calls with the page's cookies. */
export async function restGet(page, path) {
  const res = await page.request.get(`${REST_API}${path}`);
  const body = await res.json().catch(() => null);
  return { status: res.status(), body, headers: res.headers() };
}

/** A Store API nonce for the page's session (any Store API answer carries one). */
export async function nonceOf(page) {
  const res = await page.request.get(`${STORE_API}/cart`);
  const nonce = res.headers().nonce;
  assert.ok(nonce, 'GET /cart answers with a Nonce header');
  return nonce;
}

/** POST on Ferroshop's own calls with the page's cookies and a fresh nonce. */
export async function restPost(page, path, data) {
  const res = await page.request.post(`${REST_API}${path}`, { data, headers: { Nonce: await nonceOf(page) } });
  const body = await res.json().catch(() => null);
  return { status: res.status(), body };
}

/** The address rules, from the server. */
export async function addressLocaleOf(page) {
  const { status, body } = await restGet(page, '/address-locale');
  assert.equal(status, 200, 'GET /address-locale answers');
  return body;
}

/** Opens /checkout and waits for the form. */
export async function openCheckout(page) {
  await page.goto('/checkout');
  await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
  await page.locator('#billing_first_name').waitFor();
}

/** The row of a checkout field (`billing_postcode` → `#billing_postcode_field`). */
export const rowOf = (page, id) => page.locator(`#${id}_field`);

/** Fills one address section ("billing" or "shipping") as a shopper would. */
export async function fillAddress(page, kind, address) {
  const country = page.locator(`#${kind}_country`);
  await country.selectOption(address.country);
  for (const key of ['first_name', 'last_name', 'company', 'address_1', 'address_2', 'city', 'postcode', 'phone', 'email']) {
    const input = page.locator(`#${kind}_${key}`);
    if (address[key] === undefined || (await input.count()) === 0) continue;
    await input.fill(address[key]);
  }
  const state = page.locator(`#${kind}_state`);
  if (address.state && (await state.count()) > 0) {
    const tag = await state.evaluate((element) => `${element.tagName}:${element.getAttribute('type') ?? ''}`);
    if (tag.startsWith('SELECT')) await state.selectOption(address.state);
    else if (tag !== 'INPUT:hidden') await state.fill(address.state);
  }
}

/** Waits until no order review refresh is running or waiting. */
export async function reviewSettled(page) {
  await expectAttribute(page.locator('#order_review'), 'aria-busy', 'false', { timeout: 15_000 });
}

/** Ticks the terms box when the shop has terms. */
export async function acceptTerms(page) {
  const terms = page.locator('#terms');
  if ((await terms.count()) > 0) await terms.check();
}

/** Places the order and waits for the thank-you page; returns { orderId, key }. */
export async function placeOrder(page) {
  await reviewSettled(page);
  await page.locator('#place_order').click();
  const url = await waitFor(
    () => {
      const current = new URL(page.url());
      assert.match(current.pathname, /^\/checkout\/order-received\/\d+\/?$/);
      return current;
    },
    { timeout: 20_000, message: 'the order-received page' },
  );
  const orderId = url.pathname.split('/').filter(Boolean).pop();
  return { orderId, key: url.searchParams.get('key') };
}

/** Looks an order up at /order-tracking as a guest does, and waits for it. */
export async function trackOrder(page, number, email) {
  await page.goto('/order-tracking');
  const form = page.getByRole('form', { name: 'Track your order' });
  await form.getByLabel('Order ID').fill(number);
  await form.getByLabel('Billing email').fill(email);
  await form.getByRole('button', { name: 'Track' }).click();
  await expectTextContaining(page.getByRole('main'), `Order #${number} was placed on`);
}

/**
 * Places an order without the checkout page: the classic checkout call with the
 * page's cookies and the nonce from its settings (the page must show a shop page).
 */
export async function orderViaClassicCall(page, address, paymentMethod = 'bacs') {
  const settings = await settingsOf(page);
  const cart = await (await page.request.get(`${STORE_API}/cart`)).json();
  const form = {
    'woocommerce-process-checkout-nonce': settings.checkout?.nonces?.process_checkout ?? '',
    payment_method: paymentMethod,
  };
  for (const [key, value] of Object.entries(address)) form[`billing_${key}`] = value;
  (cart.shipping_rates ?? []).forEach((pkg, index) => {
    const rate = pkg.shipping_rates.find((r) => r.selected) ?? pkg.shipping_rates[0];
    if (rate) form[`shipping_method[${index}]`] = rate.rate_id;
  });
  if (settings.checkout?.terms) {
    form.terms = 'on';
    form['terms-field'] = '1';
  }
  const res = await page.request.post('/?wc-ajax=checkout', { form });
  const body = await res.json().catch(() => null);
  assert.equal(body?.result, 'success', `the classic checkout call places the order: ${JSON.stringify(body)?.slice(0, 400)}`);
  const redirect = new URL(body.redirect);
  return { orderId: String(body.order_id ?? redirect.pathname.split('/').filter(Boolean).pop()), key: redirect.searchParams.get('key'), redirect };
}

/**
 * Registers a customer from outside the browser (its own cookies), so the page under
 * test stays a guest until it logs in.
 */
export async function registerCustomer(baseURL, { email, password, first_name = 'Grace', last_name = 'Hopper' }) {
  const first = await fetch(new URL(`${STORE_API}/cart`, baseURL));
  const cookies = first.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ');
  const nonce = first.headers.get('nonce');
  const res = await fetch(new URL(`${REST_API}/account/register`, baseURL), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', Cookie: cookies, ...(nonce ? { Nonce: nonce } : {}) },
    body: JSON.stringify({ email, password, first_name, last_name }),
  });
  const body = await res.json().catch(() => null);
  assert.equal(res.status, 201, `registering ${email} answers 201: ${JSON.stringify(body)?.slice(0, 300)}`);
  return body.user;
}

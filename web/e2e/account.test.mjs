// The account area: registering, the dashboard, saved addresses with per-country
// fields, account details, the orders list and one order, logging out and back in,
// the lost-password form; and a guest looking an order up at /order-tracking.

import assert from 'node:assert/strict';
import { addToCartVia, decodeEntities, formatPrice } from './support/api.mjs';
import { customer, orderViaClassicCall, registerCustomer, restGet, rowOf } from './support/checkout.mjs';
import { expectAttribute, expectCount, expectText, expectTextContaining, expectURL, expectValue, waitFor } from './support/checks.mjs';
import { perViewport, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);

async function someProduct() {
  const product = (await shop.api.allProducts()).find((p) => p.type === 'simple' && p.is_purchasable && p.is_in_stock && p.add_to_cart.minimum <= 1);
  assert.ok(product, 'the demo shop has a simple product in stock');
  return product;
}

async function register(page, email, password = 'Correct-Horse-42') {
  await page.goto('/my-account');
  const form = page.getByRole('form', { name: 'Register' });
  await form.getByLabel('Email address').fill(email);
  await form.locator('input[name="password"]').fill(password);
  await form.getByRole('button', { name: 'Register' }).click();
  await page.getByRole('navigation', { name: 'Account pages' }).waitFor();
}

const accountNav = (page) => page.getByRole('navigation', { name: 'Account pages' });

perViewport((viewport) => {
  shop.test('a visitor registers, saves addresses and account details', viewport, async ({ page, shot }) => {
    await page.goto('/my-account');
    await page.getByRole('heading', { level: 2, name: 'Login' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Register' }).waitFor();
    await shot('my-account-logged-out');

    // Registering with nothing filled in names the fields.
    const form = page.getByRole('form', { name: 'Register' });
    await form.getByRole('button', { name: 'Register' }).click();
    await expectTextContaining(rowOf(page, 'reg_email'), 'is a required field.');

    const who = customer('account');
    await register(page, who.email);
    await expectTextContaining(page.getByRole('main'), 'Hello');
    await expectTextContaining(page.getByRole('main'), '(not');
    for (const name of ['Dashboard', 'Orders', 'Addresses', 'Account details']) await accountNav(page).getByRole('link', { name }).waitFor();
    await accountNav(page).getByRole('button', { name: 'Log out' }).waitFor();
    await shot('my-account-dashboard');

    // Billing address, US: the state is a select.
    await accountNav(page).getByRole('link', { name: 'Addresses' }).click();
    await page.getByRole('heading', { name: 'Billing address' }).waitFor();
    await page.getByRole('link', { name: /^(Add|Edit) Billing address$/ }).click();
    await expectURL(page, (url) => url.pathname === '/my-account/edit-address/billing', 'be the billing address form');
    await page.locator('#billing_country').selectOption('US');
    await page.getByRole('button', { name: 'Save address' }).click();
    await expectAttribute(rowOf(page, 'billing_first_name'), 'class', /woocommerce-invalid/);
    for (const [key, value] of Object.entries({ first_name: who.first_name, last_name: who.last_name, address_1: who.address_1, city: who.city, postcode: who.postcode, phone: who.phone })) {
      await page.locator(`#billing_${key}`).fill(value);
    }
    await page.locator('#billing_state').selectOption('CA');
    await expectValue(page.locator('#billing_email'), who.email);
    await shot('my-account-edit-address');
    await page.getByRole('button', { name: 'Save address' }).click();
    await expectURL(page, (url) => url.pathname === '/my-account/edit-address', 'be back on the addresses');
    await page.getByRole('status').filter({ hasText: /address/i }).waitFor();
    await expectTextContaining(page.getByTestId('billing-address'), who.address_1);
    await expectTextContaining(page.getByTestId('billing-address'), 'California');

    // Shipping address, GB: no state select, a postcode.
    await page.getByRole('link', { name: /^(Add|Edit) Shipping address$/ }).click();
    await page.locator('#shipping_country').selectOption('GB');
    await expectCount(page.locator('select#shipping_state'), 0);
    await page.locator('#shipping_first_name').fill('Ada');
    await page.locator('#shipping_last_name').fill('Lovelace');
    await page.locator('#shipping_address_1').fill('12 St James Square');
    await page.locator('#shipping_city').fill('London');
    await page.locator('#shipping_postcode').fill('SW1Y 4JH');
    await page.getByRole('button', { name: 'Save address' }).click();
    await expectURL(page, (url) => url.pathname === '/my-account/edit-address', 'be back on the addresses');
    await expectTextContaining(page.getByTestId('shipping-address'), 'London');
    await shot('my-account-addresses');
    const { body: saved } = await restGet(page, '/account');
    assert.equal(saved.billing.state, 'CA');
    assert.equal(saved.shipping.country, 'GB');

    // Account details.
    await accountNav(page).getByRole('link', { name: 'Account details' }).click();
    const details = page.getByRole('form', { name: 'Account details' });
    await details.getByLabel('First name').fill('Augusta');
    await details.getByLabel('Last name').fill('King');
    await details.getByLabel('Display name').fill('Augusta Ada');
    await details.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: /changed|saved|updated/i }).waitFor();
    await shot('my-account-details');
    const { body: after } = await restGet(page, '/account');
    assert.equal(after.user.first_name, 'Augusta');
    assert.equal(after.user.display_name, 'Augusta Ada');
    await accountNav(page).getByRole('link', { name: 'Dashboard' }).click();
    await expectTextContaining(page.getByRole('main'), 'Hello Augusta Ada');

    // Logging out, then in again.
    await accountNav(page).getByRole('button', { name: 'Log out' }).click();
    const login = page.getByRole('form', { name: 'Login' });
    await login.waitFor();
    await login.getByLabel('Username or email address').fill(who.email);
    await login.locator('input[name="password"]').fill('not the password');
    await login.getByRole('button', { name: 'Log in' }).click();
    await login.getByRole('alert').waitFor();
    await login.locator('input[name="password"]').fill('Correct-Horse-42');
    await login.getByRole('button', { name: 'Log in' }).click();
    await accountNav(page).waitFor();
  });

  shop.test('the orders list and one order in the account', viewport, async ({ page, shot }) => {
    const who = customer('orders');
    await register(page, who.email);
    const product = await someProduct();
    await addToCartVia(page, product.id, 1);
    const first = await orderViaClassicCall(page, { ...who });
    await addToCartVia(page, product.id, 2);
    const second = await orderViaClassicCall(page, { ...who });

    await accountNav(page).getByRole('link', { name: 'Orders' }).click();
    const rows = page.getByTestId('account-order');
    await expectCount(rows, 2);
    const { body: list, headers } = await restGet(page, '/account/orders?page=1');
    assert.equal(Number(headers['x-wp-total']), 2);
    const newest = list[0];
    assert.equal(String(newest.id), second.orderId);
    await expectTextContaining(rows.first(), `#${newest.number}`);
    await expectTextContaining(rows.first(), formatPrice(newest.total, newest));
    await expectTextContaining(rows.first(), newest.status_label);
    await shot('my-account-orders');

    await rows.nth(1).getByRole('link', { name: /^View order/ }).click();
    await expectURL(page, (url) => url.pathname === `/my-account/view-order/${first.orderId}`, 'be the first order');
    const { body: order } = await restGet(page, `/account/orders/${first.orderId}`);
    await expectTextContaining(page.getByRole('main'), `Order #${order.number} was placed on`);
    await expectTextContaining(page.getByTestId('order-item'), decodeEntities(order.items[0].name));
    await expectText(page.getByTestId('order-total'), formatPrice(order.totals.total, order.totals));
    await expectTextContaining(page.getByTestId('billing-address'), who.address_1);
    await shot('my-account-view-order');
  });

  shop.test('a guest looks an order up at /order-tracking', viewport, async ({ page, shot }) => {
    const product = await someProduct();
    await page.goto('/');
    await addToCartVia(page, product.id, 1);
    const who = customer('tracking');
    const placed = await orderViaClassicCall(page, who);
    const { body: order } = await restGet(page, `/orders/${placed.orderId}?key=${encodeURIComponent(placed.key)}`);

    await page.goto('/order-tracking');
    const form = page.getByRole('form', { name: 'Track your order' });
    await form.getByLabel('Order ID').fill(order.number);
    await form.getByLabel('Billing email').fill('someone.else@example.test');
    await form.getByRole('button', { name: 'Track' }).click();
    await form.getByRole('alert').waitFor();

    await form.getByLabel('Billing email').fill(who.email);
    await form.getByRole('button', { name: 'Track' }).click();
    await expectTextContaining(page.getByRole('main'), `Order #${order.number} was placed on`);
    await expectText(page.getByTestId('order-total'), formatPrice(order.totals.total, order.totals));
    await shot('order-tracking');
  });

  shop.test('a customer who forgot the password asks for a reset link', viewport, async ({ page }) => {
    const who = customer('lost');
    await registerCustomer(shop.baseURL, { email: who.email, password: 'Correct-Horse-42' });
    await page.goto('/my-account');
    await page.getByRole('link', { name: 'Lost your password?' }).first().click();
    await expectURL(page, (url) => url.pathname === '/my-account/lost-password', 'be the lost-password page');
    const form = page.getByRole('form', { name: 'Lost password' });
    await form.getByLabel('Username or email').fill(who.email);
    await form.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('status').first().waitFor();
    await waitFor(async () => (await form.count()) === 0, { message: 'the form to give way to the confirmation' });
  });
});

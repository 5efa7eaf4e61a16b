// Coming-soon mode in the browser: a visitor gets the coming-soon page (503) on every
// storefront page but can reach the account page to sign in; a customer is a visitor
// too; staff (`ferroshop staff grant`) see the shop with a banner whose Dismiss writes
// the setting through the platform's user call (a PUT sent as POST with the method
// override), after which no page shows it.

import assert from 'node:assert/strict';
import { registerCustomer } from './support/checkout.mjs';
import { expectCount, expectNoAxeViolations, expectTextContaining } from './support/checks.mjs';
import { perViewport, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url, { env: { FERROSHOP_COMING_SOON: 'yes', FERROSHOP_COMING_SOON_MESSAGE: 'We open on the first of May.' } });
const PASSWORD = 'Correct-Horse-42';

/**
 * Opens a page that may be the coming-soon page, which is no app: the shop's `goto`
 * waits for the app to take the page over, the browser's own does not.
 */
function visit(page, path) {
  return Object.getPrototypeOf(page).goto.call(page, new URL(path, shop.baseURL).href);
}

async function logIn(page, email) {
  await page.goto('/my-account/');
  const login = page.getByRole('form', { name: 'Login' });
  await login.getByLabel('Username or email address').fill(email);
  await login.locator('input[name="password"]').fill(PASSWORD);
  await login.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation', { name: 'Account pages' }).waitFor();
}

perViewport((viewport) => {
  shop.test('visitors and customers get the coming-soon page; staff see the shop and dismiss its banner', viewport, async ({ page, shot }) => {
    const first = await visit(page, '/');
    assert.equal(first.status(), 503);
    assert.ok(Number(first.headers()['retry-after']) > 0, 'Retry-After asks crawlers to come back');
    await page.getByRole('heading', { level: 1, name: 'Ferroshop' }).waitFor();
    await expectTextContaining(page.locator('main'), 'We open on the first of May.');
    await expectNoAxeViolations(page, `the coming-soon page at ${viewport.width} px`);
    await shot('coming-soon');
    for (const path of ['/shop/', '/cart/']) assert.equal((await visit(page, path)).status(), 503, path);

    // The way in for staff stays open; a customer is still a visitor.
    const email = `staff-${viewport.width}-${Date.now()}@example.test`;
    await registerCustomer(shop.baseURL, { email, password: PASSWORD });
    await logIn(page, email);
    assert.equal((await visit(page, '/')).status(), 503, 'a customer sees the coming-soon page');

    const granted = await shop.command('staff', 'grant', email);
    assert.match(granted, /shop_manager/);
    const open = await page.goto('/shop/');
    assert.equal(open.status(), 200, 'staff see the shop');
    const banner = page.getByRole('region', { name: 'Coming soon mode' });
    await expectTextContaining(banner, 'coming soon');
    await expectNoAxeViolations(page, `the shop with the coming-soon banner at ${viewport.width} px`);
    await shot('coming-soon-banner');

    const write = page.waitForRequest((request) => request.url().includes('/wp-json/wp/v2/users/'));
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    const request = await write;
    assert.equal(request.method(), 'POST');
    assert.equal(request.headers()['x-http-method-override'], 'PUT');
    assert.ok(request.headers()['x-wp-nonce'], 'the nonce header is sent');
    assert.deepEqual(JSON.parse(request.postData()), { woocommerce_meta: { coming_soon_banner_dismissed: 'yes' } });
    assert.equal((await request.response()).status(), 200);
    await expectCount(banner, 0);
    await page.goto('/');
    await page.getByRole('main').waitFor();
    await expectCount(page.getByRole('region', { name: 'Coming soon mode' }), 0);
  });
});

// Wishlists in the browser: a guest's hearts on product cards and on a product page
// (a variable product's heart waiting for a variation, with the original's alert),
// the answer's dialog (Escape, focus kept inside, the redirect to the list after 4 s,
// cancelled by closing it), several lists and the "Add to wishlist…" chooser (an
// empty new name marked for a second, nothing sent), the wishlist page (its table,
// the bulk alert, bulk and single add to cart with the header's cart following,
// remove), the share page opened by a stranger in another browser (read-only, add to
// cart only), and a guest's list merged into their account when they log in.
// axe-core and screenshots at each width.

import assert from 'node:assert/strict';
import path from 'node:path';
import { registerCustomer } from './support/checkout.mjs';
import { chooseOption } from './support/api.mjs';
import { expectAttribute, expectCount, expectNoAxeViolations, expectText, expectTextContaining, expectURL, waitFor } from './support/checks.mjs';
import { perViewport, SCREENSHOT_DIR, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);

const ADD = 'Add to Wishlist';
const ALREADY = 'Already In Wishlist';
const MAKE_A_SELECTION = 'Please select some product options before adding this product to your wishlist.';
const BREAK_SUBMIT = 'No items or actions are selected.';

const card = (page, name) => page.locator('article').filter({ has: page.getByRole('heading', { name, exact: true }) });
const dialog = (page) => page.getByRole('dialog');
const headerWishlist = (page) => page.getByRole('banner').getByRole('link', { name: /^Wishlist/ });

/** Simple products the shop sells now, as the Store API lists them. */
async function simpleProducts(count) {
  const products = (await shop.api.allProducts()).filter((p) => p.type === 'simple' && p.is_purchasable && p.is_in_stock && !p.sold_individually);
  assert.ok(products.length >= count, `the demo shop has ${count} simple products in stock`);
  return products.slice(0, count);
}

/** The screen as the shopper sees it (a dialog over the page), rather than the whole page. */
async function screenShot(page, label, viewport) {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${label}-${viewport.width}px.png`), animations: 'disabled' });
}

const nameOf = (product) => product.name.replace(/&amp;/g, '&').replace(/&#0?39;|&#8217;/g, '’');

/** Collects the page's window.alert texts (accepting each). */
function recordAlerts(page) {
  const alerts = [];
  page.on('dialog', (d) => {
    alerts.push(d.message());
    void d.accept();
  });
  return alerts;
}

/** Records the add calls (a POST carrying `tinv_wishlist_id`) the page sends. */
function recordAdds(page) {
  const sent = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && (request.postData() ?? '').includes('name="tinv_wishlist_id"')) sent.push(request);
  });
  return sent;
}

/** Adds a product from the page's context, as a heart would (the call of the contract). */
async function addThroughPage(page, productId) {
  return page.evaluate(async (id) => {
    const settings = JSON.parse(document.getElementById('ferroshop-settings').textContent).wishlist;
    const body = new FormData();
    for (const [name, value] of Object.entries({ tinv_wishlist_id: '', tinv_wishlist_name: '', product_type: 'simple', product_id: id, product_variation: 0, product_action: 'addto', redirect: location.href })) {
      body.set(name, String(value));
    }
    const res = await fetch(location.pathname, { method: 'POST', body, headers: { 'X-WP-Nonce': settings.nonce, Accept: 'application/json' } });
    return res.json();
  }, productId);
}

/** The listing's page holding `product` (the shop lists newest first, twelve a page). */
async function openShopWith(page, product) {
  for (let n = 1; n <= 6; n += 1) {
    await page.goto(n === 1 ? '/shop' : `/shop?page=${n}`);
    await page.locator('article').first().waitFor();
    if ((await card(page, nameOf(product)).count()) > 0) return;
  }
  throw new Error(`${product.name} not found on the shop's first pages`);
}

/** The wishlist page, taken over by the app. */
async function openWishlist(page, path = '/wishlist/') {
  await page.goto(path);
  await page.locator('h1').waitFor();
  await page.locator('html[data-app="ready"]').waitFor();
}

async function expectNoHorizontalOverflow(page, label) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `${label}: the page is ${overflow}px wider than the screen`);
}

perViewport((viewport) => {
  shop.test('a guest lists products from a card and a product page; the dialog, its redirect, and a variable product waiting for its options', viewport, async ({ page }) => {
    const alerts = recordAlerts(page);
    const [simple] = await simpleProducts(1);
    const variable = await shop.api.pickProduct('variable product in stock', (p) => p.type === 'variable' && p.is_in_stock && p.variations.length > 0);

    // From a card: the heart is a toggle button, not pressed, until the answer comes.
    await openShopWith(page, simple);
    const heart = card(page, nameOf(simple)).getByRole('button', { name: ADD });
    await expectAttribute(heart, 'aria-pressed', 'false');
    await heart.click();
    await expectText(dialog(page).getByRole('heading'), `${nameOf(simple)} added to Default wishlist`);
    await dialog(page).getByRole('button', { name: 'View Wishlist' }).waitFor();
    await expectAccessible(page, `the add dialog at ${viewport.width} px`);
    await screenShot(page, 'wishlist-added-dialog', viewport);

    // The focus stays inside; Escape closes it and the redirect with it.
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('Tab');
    assert.ok(await dialog(page).evaluate((d) => d.contains(document.activeElement)), 'the focus is kept in the dialog');
    await page.keyboard.press('Escape');
    await expectCount(dialog(page), 0);
    const marked = card(page, nameOf(simple)).getByRole('button', { name: ALREADY });
    await expectAttribute(marked, 'aria-pressed', 'true');
    await expectText(headerWishlist(page).locator('span'), '1');
    // Past the redirect's 4 s: still here.
    await page.waitForTimeout(4500);
    assert.match(new URL(page.url()).pathname, /^\/shop/);

    // A variable product's page: the heart waits for a choice, and says so.
    await page.goto(`/product/${variable.slug}`);
    await page.locator('html[data-app="ready"]').waitFor();
    // The product's own heart comes before the related products' cards.
    const pageHeart = page.getByRole('main').getByRole('button', { name: ADD }).first();
    await expectAttribute(pageHeart, 'aria-disabled', 'true');
    // A control marked disabled is still reached and pressed from the keyboard.
    await pageHeart.focus();
    await page.keyboard.press('Enter');
    await waitFor(() => alerts.includes(MAKE_A_SELECTION), { message: 'the make-a-selection alert' });
    await pageHeart.scrollIntoViewIfNeeded();
    await screenShot(page, 'wishlist-product-page-heart', viewport);
    const variations = await Promise.all(variable.variations.map((ref) => shop.api.product(ref.id)));
    const target = variations.find((v) => v.is_in_stock && v.is_purchasable) ?? variations[0];
    const ref = variable.variations.find((r) => r.id === target.id);
    for (const attribute of variable.attributes.filter((a) => a.has_variations)) {
      await chooseOption(page.getByRole('main'), attribute, ref.attributes.find((a) => a.name === attribute.name)?.value);
    }
    await waitFor(async () => (await pageHeart.getAttribute('aria-disabled')) === null, { message: 'the heart enabled once a variation is chosen' });
    await pageHeart.click();
    // The variation's name, as the server words it: the product's, perhaps with its options.
    await expectTextContaining(dialog(page).getByRole('heading'), 'added to Default wishlist');
    assert.ok((await dialog(page).getByRole('heading').textContent()).startsWith(nameOf(variable)));
    await screenShot(page, 'wishlist-product-page-dialog', viewport);
    // Left open, the dialog gives way to the list after 4 s.
    await expectURL(page, (url) => /^\/wishlist\/[0-9a-f]{12}\/$/.test(url.pathname), 'the list, after the redirect', { timeout: 9000 });
    await page.locator('table').waitFor();
    await expectCount(page.locator('tbody tr'), 2);
  });

  shop.test('several lists: the chooser adds to the list chosen and marks an empty name for a second; a list renamed and deleted', viewport, async ({ page }) => {
    const [first, second] = await simpleProducts(2);
    const adds = recordAdds(page);
    await page.goto('/');
    const answer = await addThroughPage(page, first.id);
    assert.equal(answer.status, true, JSON.stringify(answer));

    // A second list, from the wishlist page.
    await openWishlist(page);
    await page.getByLabel('Create a new wishlist').fill('Gifts');
    await page.getByRole('button', { name: 'Create New' }).click();
    await expectURL(page, (url) => /^\/wishlist\/[0-9a-f]{12}\/$/.test(url.pathname), 'the new list');
    await expectText(page.getByRole('heading', { level: 2, name: 'Gifts' }), 'Gifts');
    await expectText(page.getByText('Your Wishlist is currently empty.'), 'Your Wishlist is currently empty.');

    // A heart now asks which list.
    await openShopWith(page, second);
    await card(page, nameOf(second)).getByRole('button', { name: ADD }).click();
    const chooser = dialog(page);
    await chooser.getByLabel('Wishlist', { exact: true }).waitFor();
    const before = adds.length;
    await chooser.getByLabel('Wishlist', { exact: true }).selectOption({ label: 'Create New' });
    await chooser.getByRole('button', { name: ADD }).click();
    const nameField = chooser.getByLabel('New wishlist’s name');
    await expectAttribute(nameField, 'aria-invalid', 'true');
    assert.match(await nameField.getAttribute('class'), /empty-name-wishlist/);
    await expectText(chooser.getByRole('alert'), 'Choose a wishlist, or give the new one a name.');
    const outline = await nameField.evaluate((el) => getComputedStyle(el).outlineStyle);
    assert.equal(outline, 'solid', 'the empty field is outlined');
    await expectAccessible(page, `the list chooser at ${viewport.width} px`);
    await screenShot(page, 'wishlist-chooser-empty-name', viewport);
    await waitFor(async () => !/empty-name-wishlist/.test((await nameField.getAttribute('class')) ?? ''), { timeout: 2000, message: 'the mark gone after a second' });
    assert.equal(adds.length, before, 'nothing was sent');

    await chooser.getByLabel('Wishlist', { exact: true }).selectOption({ label: 'Gifts (0)' });
    await chooser.getByRole('button', { name: ADD }).click();
    await expectText(dialog(page).getByRole('heading'), `${nameOf(second)} added to Gifts`);
    await dialog(page).getByRole('button', { name: 'Close' }).click();
    await expectCount(dialog(page), 0);
    assert.equal(adds.length, before + 1);
    assert.match(adds.at(-1).postData(), /name="tinv_wishlist_id"\r\n\r\n\d+/);

    // Renamed, then deleted, from its page.
    page.on('dialog', (d) => void d.accept());
    await openWishlist(page);
    await page.getByRole('link', { name: /^Gifts/ }).click();
    await expectText(page.getByRole('heading', { level: 2, name: 'Gifts' }), 'Gifts');
    await expectCount(page.locator('tbody tr'), 1);
    await page.getByLabel('Rename this wishlist').fill('Presents');
    await page.getByRole('button', { name: 'Rename' }).click();
    await expectText(page.getByRole('heading', { level: 2, name: 'Presents' }), 'Presents');
    await page.getByRole('complementary').getByRole('link', { name: /^Presents/ }).waitFor();
    await page.getByRole('button', { name: 'Delete this wishlist' }).click();
    await expectURL(page, (url) => url.pathname === '/wishlist/', 'the default list, once the other is deleted');
    await expectCount(page.getByRole('complementary').getByRole('listitem'), 1);
  });

  shop.test('the wishlist page: the bulk alert, bulk and single add to cart, remove; no overflow on phones', viewport, async ({ page, shot }) => {
    const alerts = recordAlerts(page);
    const products = await simpleProducts(3);
    await page.goto('/');
    for (const product of products) assert.equal((await addThroughPage(page, product.id)).status, true);

    await openWishlist(page);
    await expectCount(page.locator('tbody tr'), 3);
    await expectNoHorizontalOverflow(page, `the wishlist at ${viewport.width} px`);
    await expectAccessible(page, `the wishlist page at ${viewport.width} px`);
    await shot('wishlist-page');

    // Nothing ticked: refused, in an alert and in the page.
    await page.getByRole('button', { name: 'Apply' }).click();
    await waitFor(() => alerts.includes(BREAK_SUBMIT), { message: 'the break-submit alert' });
    await expectText(page.locator('form [role="alert"]').filter({ hasText: BREAK_SUBMIT }), BREAK_SUBMIT);
    // Ticked but no action chosen: refused too.
    await page.getByRole('checkbox', { name: `Select “${nameOf(products[0])}”` }).check();
    alerts.length = 0;
    await page.getByRole('button', { name: 'Apply' }).click();
    await waitFor(() => alerts.includes(BREAK_SUBMIT), { message: 'the alert without an action' });

    // Bulk: the ticked one into the cart (and out of its owner's list); the header's cart follows.
    await page.getByLabel('Bulk action', { exact: true }).selectOption('add_to_cart_selected');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expectText(page.getByRole('status').filter({ hasText: 'added to your cart' }).first(), `“${nameOf(products[0])}” has been added to your cart.`);
    await waitFor(async () => (await page.getByRole('banner').getByRole('link', { name: /Cart: .*1 item/ }).count()) > 0, { message: 'the header cart with 1 item' });
    await expectCount(page.locator('tbody tr'), 2);

    // One row's own button.
    await page.getByRole('button', { name: `Add to Cart: ${nameOf(products[1])}` }).click();
    await expectText(page.getByRole('status').filter({ hasText: 'added to your cart' }).first(), `“${nameOf(products[1])}” has been added to your cart.`);
    await waitFor(async () => (await page.getByRole('banner').getByRole('link', { name: /Cart: .*2 items/ }).count()) > 0, { message: 'the header cart with 2 items' });
    await expectCount(page.locator('tbody tr'), 1);
    await shot('wishlist-page-after-actions');

    // Remove the last one: the list is empty.
    await page.getByRole('button', { name: `Remove “${nameOf(products[2])}” from the wishlist` }).click();
    await expectText(page.getByRole('status').filter({ hasText: 'removed' }).first(), `“${nameOf(products[2])}” has been removed from the wishlist.`);
    await expectText(page.getByText('Your Wishlist is currently empty.'), 'Your Wishlist is currently empty.');
    await page.getByRole('link', { name: 'Return To Shop' }).waitFor();
    await expectText(headerWishlist(page).locator('span'), '0');
  });

  shop.test('the share page: a stranger sees the list read-only and can add it to their cart', viewport, async ({ page, context, shot }) => {
    const [product] = await simpleProducts(1);
    await page.goto('/');
    const answer = await addThroughPage(page, product.id);
    const url = new URL(answer.wishlist_url);
    assert.match(url.pathname, /^\/wishlist\/[0-9a-f]{12}\/$/);

    await openWishlist(page);
    const share = page.getByRole('region', { name: 'Share on' });
    assert.match(await share.getByRole('link', { name: 'Facebook' }).getAttribute('href'), new RegExp(`^https://www\\.facebook\\.com/sharer/sharer\\.php\\?u=${encodeURIComponent(answer.wishlist_url).replace(/[.?]/g, '\\$&')}`));
    assert.match(await share.getByRole('link', { name: 'WhatsApp' }).getAttribute('href'), /^https:\/\/api\.whatsapp\.com\/send\?text=/);
    assert.match(await share.getByRole('link', { name: 'Email' }).getAttribute('href'), /^mailto:\?body=/);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await share.getByRole('link', { name: 'Copy link' }).click();
    await expectText(share.getByRole('status'), 'Copied!');

    const stranger = await context.browser().newContext({ baseURL: new URL(page.url()).origin, viewport: { width: viewport.width, height: viewport.height }, reducedMotion: 'reduce' });
    try {
      const other = await stranger.newPage();
      await other.goto(url.pathname);
      await other.locator('html[data-app="ready"]').waitFor();
      await other.locator('table').waitFor();
      await expectCount(other.locator('table').getByRole('checkbox'), 0);
      await expectCount(other.getByRole('button', { name: /^Remove/ }), 0);
      await expectCount(other.getByRole('button', { name: 'Apply' }), 0);
      await expectText(other.getByText('A wishlist shared with you.'), 'A wishlist shared with you.');
      await expectAccessible(other, `the share page at ${viewport.width} px`);
      await shot('wishlist-share-page', other);
      await other.getByRole('button', { name: `Add to Cart: ${nameOf(product)}` }).click();
      await expectText(other.getByRole('status').filter({ hasText: 'added to your cart' }).first(), `“${nameOf(product)}” has been added to your cart.`);
      // Still the owner's: nothing left their list.
      await page.reload();
      await expectCount(page.locator('tbody tr'), 1);
      // An unknown key.
      await other.goto('/wishlist/0123456789ab/');
      await expectText(other.getByText('Wishlist is not found!'), 'Wishlist is not found!');
    } finally {
      await stranger.close();
    }
  });

  shop.test('a guest’s list is merged into their account when they log in', viewport, async ({ page }) => {
    const [product] = await simpleProducts(1);
    const email = `wish.${viewport.width}.${Date.now().toString(36)}@example.test`;
    await registerCustomer(shop.baseURL, { email, password: 'Correct-Horse-42' });

    await page.goto('/');
    assert.equal((await addThroughPage(page, product.id)).status, true);
    await page.goto('/my-account');
    const login = page.getByRole('form', { name: 'Login' });
    await login.getByLabel('Username or email address').fill(email);
    await login.locator('input[name="password"]').fill('Correct-Horse-42');
    await login.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('main').getByText(/^Hello/).waitFor();

    const cookies = await page.context().cookies();
    assert.equal(cookies.find((c) => c.name === 'tinvwl_wishlists_data_counter')?.value, '1', 'the counter cookie says 1');
    await openWishlist(page);
    await expectCount(page.locator('tbody tr'), 1);
    await expectText(page.locator('tbody tr a').first(), nameOf(product));
    await expectText(headerWishlist(page).locator('span'), '1');
  });
});

/** axe-core over the page as it stands. */
async function expectAccessible(page, label) {
  await expectNoAxeViolations(page, label);
}

// The theme's behaviours: the main menu's dropdowns (mouse, keyboard, a phone's menu,
// the first-tap rule on touch screens above 767 px), the header cart dropdown's 15em
// list, the phone's footer bar, the brands A–Z page, the password toggles on every
// password field, the store notice (shown, dismissed by its cookie, shown again under
// a new id, and without scripts), axe-core on each page, and no layout shift with the
// notice and the footer bar in the page. The shop runs with a store notice set.

import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { addToCartVia, cartOf, decodeEntities } from './support/api.mjs';
import { openCheckout, restPost } from './support/checkout.mjs';
import {
  DEFAULT_TIMEOUT_MS,
  expectAttribute,
  expectCount,
  expectNoAxeViolations,
  expectText,
  expectTextContaining,
  expectURL,
  waitFor,
} from './support/checks.mjs';
import { startServer } from './support/server.mjs';
import { perViewport, TEST_TIMEOUT_MS, useShop, VIEWPORTS } from './support/shop.mjs';

const NOTICE_TEXT = 'Free shipping on orders over $50 this week — <a href="/shop">shop now</a>';
const NOTICE_ID = 'week-1';
const shop = useShop(import.meta.url, { env: { FERROSHOP_STORE_NOTICE: NOTICE_TEXT, FERROSHOP_STORE_NOTICE_ID: NOTICE_ID } });

const DESKTOP = VIEWPORTS.find((v) => v.name === 'desktop');

const primaryNav = (page) => page.getByRole('navigation', { name: 'Primary' });
const footerBar = (page) => page.getByRole('navigation', { name: 'Shortcuts', includeHidden: true });
const storeNotice = (page) => page.getByRole('region', { name: 'Store notice' });

/** A top-level category of the menu that has subcategories with products, and those. */
async function parentCategory() {
  const categories = await shop.api.categories();
  const top = categories.filter((c) => c.parent === 0 && c.count > 0 && c.slug !== 'uncategorized').slice(0, 6);
  for (const parent of top) {
    const children = categories.filter((c) => c.parent === parent.id && c.count > 0);
    if (children.length > 0) {
      return { ...parent, name: decodeEntities(parent.name), children: children.map((c) => ({ ...c, name: decodeEntities(c.name) })) };
    }
  }
  throw new Error('the demo catalogue has no menu category with subcategories');
}

async function simpleProducts(count) {
  const products = (await shop.api.allProducts()).filter(
    (p) => p.type === 'simple' && p.is_purchasable && p.is_in_stock && !p.sold_individually && p.add_to_cart.minimum <= 1,
  );
  assert.ok(products.length >= count, `the demo shop has ${count} simple products in stock`);
  return products.slice(0, count);
}

/** Waits until the app has taken over a page opened in a context of the test's own. */
async function openReady(page, url) {
  await page.goto(url);
  await page.waitForSelector('html[data-app="ready"]', { state: 'attached', timeout: DEFAULT_TIMEOUT_MS * 2 });
}

/** A context of its own (touch screens): the shop's base address, the test's cookies none. */
async function touchContext(context, width, height) {
  const touch = await context.browser().newContext({
    baseURL: shop.baseURL,
    viewport: { width, height },
    hasTouch: true,
    locale: 'en-US',
    reducedMotion: 'reduce',
  });
  touch.setDefaultTimeout(DEFAULT_TIMEOUT_MS);
  const errors = [];
  touch.on('page', (page) => page.on('pageerror', (error) => errors.push(error.message)));
  return { touch, errors };
}

/** A click on nothing in particular outside the menu: the store notice's corner. */
async function clickOutside(page) {
  const box = await storeNotice(page).boundingBox();
  await page.mouse.click(box.x + 4, box.y + 4);
}

// ---------------------------------------------------------------------------------
// The main menu

perViewport((viewport) => {
  const phone = viewport.width < 1024;

  shop.test('the menu’s dropdowns open and close with the mouse', viewport, async ({ page, shot }) => {
    const parent = await parentCategory();
    const [child] = parent.children;
    await page.goto('/');
    const nav = primaryNav(page);
    const disclosure = nav.getByRole('button', { name: `${parent.name} subcategories` });
    const sublink = nav.getByRole('link', { name: child.name, exact: true });

    if (phone) {
      // The phone's menu: "Menu" opens it and then reads "Close"; a parent's button
      // unfolds its subcategories; an outside click closes it all.
      const toggle = nav.getByRole('button', { name: 'Menu' });
      await expectAttribute(toggle, 'aria-expanded', 'false');
      assert.equal(await disclosure.isVisible(), false, 'the menu is folded away');
      await toggle.click();
      const close = nav.getByRole('button', { name: 'Close' });
      await expectAttribute(close, 'aria-expanded', 'true');
      assert.equal(await sublink.isVisible(), false, 'subcategories stay folded until asked for');
      await disclosure.click();
      await expectAttribute(disclosure, 'aria-expanded', 'true');
      await sublink.waitFor();
      await expectNoAxeViolations(page, 'the phone menu open with a submenu');
      await shot('theme-phone-menu');
      await clickOutside(page);
      await expectAttribute(nav.getByRole('button', { name: 'Menu' }), 'aria-expanded', 'false');
      await sublink.waitFor({ state: 'hidden' });
      // Escape closes it too, focus back on the button.
      await nav.getByRole('button', { name: 'Menu' }).click();
      await page.keyboard.press('Escape');
      await expectAttribute(nav.getByRole('button', { name: 'Menu' }), 'aria-expanded', 'false');
      await waitFor(() => page.evaluate(() => document.activeElement?.getAttribute('aria-controls') === 'primary-menu'), {
        message: 'focus back on the Menu button',
      });
      // A subcategory followed closes the menu.
      await nav.getByRole('button', { name: 'Menu' }).click();
      await disclosure.click();
      await sublink.click();
      await expectURL(page, (url) => url.pathname.replace(/\/$/, '') === `/product-category/${child.slug}`, `be /product-category/${child.slug}`);
      await expectAttribute(nav.getByRole('button', { name: 'Menu' }), 'aria-expanded', 'false');
      return;
    }

    await expectCount(nav.getByRole('button', { name: 'Menu' }), 0);
    const link = nav.getByRole('link', { name: parent.name, exact: true });
    await expectAttribute(disclosure, 'aria-expanded', 'false');
    assert.equal(await sublink.isVisible(), false, 'the dropdown is closed at first');
    // Hovering the parent opens its dropdown; the pointer leaving closes it.
    await link.hover();
    await expectAttribute(disclosure, 'aria-expanded', 'true');
    await sublink.waitFor();
    await expectNoAxeViolations(page, 'the menu with a dropdown open');
    await shot('theme-menu-dropdown');
    await page.mouse.move(viewport.width / 2, viewport.height - 50);
    await expectAttribute(disclosure, 'aria-expanded', 'false');
    await sublink.waitFor({ state: 'hidden' });
    // The button beside the parent keeps it open when the pointer leaves; a second
    // click, or an outside click, closes it.
    await disclosure.click();
    await expectAttribute(disclosure, 'aria-expanded', 'true');
    await page.mouse.move(viewport.width / 2, viewport.height - 50);
    await sublink.waitFor();
    await expectAttribute(disclosure, 'aria-expanded', 'true');
    await disclosure.click();
    await expectAttribute(disclosure, 'aria-expanded', 'false');
    await disclosure.click();
    await page.mouse.move(viewport.width / 2, viewport.height - 50);
    await expectAttribute(disclosure, 'aria-expanded', 'true');
    await clickOutside(page);
    await expectAttribute(disclosure, 'aria-expanded', 'false');
    // A subcategory followed from the dropdown.
    await link.hover();
    await sublink.click();
    await expectURL(page, (url) => url.pathname.replace(/\/$/, '') === `/product-category/${child.slug}`, `be /product-category/${child.slug}`);
    await page.getByRole('heading', { level: 1, name: child.name, exact: true }).waitFor();
    await page.mouse.move(viewport.width / 2, viewport.height - 50);
    await expectAttribute(disclosure, 'aria-expanded', 'false');
  });

  shop.test('the menu works with the keyboard alone', viewport, async ({ page }) => {
    const parent = await parentCategory();
    const [first] = parent.children;
    await page.goto('/');
    const nav = primaryNav(page);
    const disclosure = nav.getByRole('button', { name: `${parent.name} subcategories` });
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    const focusedLabel = () => page.evaluate(() => document.activeElement?.getAttribute('aria-controls') ?? '');

    if (phone) {
      // Tab to the Menu button, open it, unfold the parent, reach its first subcategory.
      for (let presses = 0; (await focusedLabel()) !== 'primary-menu'; presses += 1) {
        assert.ok(presses < 10, 'the Menu button is among the first few stops');
        await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Enter');
      await expectAttribute(nav.getByRole('button', { name: 'Close' }), 'aria-expanded', 'true');
      for (let presses = 0; (await focusedText()) !== parent.name; presses += 1) {
        assert.ok(presses < 20, `${parent.name} is reached by Tab`);
        await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Tab');
      assert.equal(await focusedLabel(), `submenu-${parent.slug}`, 'the parent’s button comes next');
      await page.keyboard.press('Enter');
      await expectAttribute(disclosure, 'aria-expanded', 'true');
      await page.keyboard.press('Tab');
      assert.equal(await focusedText(), first.name);
      await page.keyboard.press('Escape');
      await expectAttribute(disclosure, 'aria-expanded', 'false');
      assert.equal(await focusedLabel(), `submenu-${parent.slug}`, 'Escape returns focus to the submenu’s button');
      await page.keyboard.press('Escape');
      await expectAttribute(nav.getByRole('button', { name: 'Menu' }), 'aria-expanded', 'false');
      assert.equal(await focusedLabel(), 'primary-menu', 'a second Escape closes the menu, focus on its button');
      return;
    }

    // From the top of the page, Tab reaches the parent link, and focus opens its dropdown.
    for (let presses = 0; (await focusedText()) !== parent.name; presses += 1) {
      assert.ok(presses < 20, `${parent.name} is reached by Tab`);
      await page.keyboard.press('Tab');
    }
    await expectAttribute(disclosure, 'aria-expanded', 'true');
    await page.keyboard.press('Tab');
    assert.equal(await focusedLabel(), `submenu-${parent.slug}`, 'the disclosure button follows its link');
    await page.keyboard.press('Tab');
    assert.equal(await focusedText(), first.name, 'then the first subcategory');
    // Escape closes it, focus on the button; Enter opens it again.
    await page.keyboard.press('Escape');
    await expectAttribute(disclosure, 'aria-expanded', 'false');
    assert.equal(await focusedLabel(), `submenu-${parent.slug}`);
    await page.keyboard.press('Enter');
    await expectAttribute(disclosure, 'aria-expanded', 'true');
    // Tabbing past the last subcategory leaves the item, which closes.
    for (let i = 0; i < parent.children.length + 1; i += 1) await page.keyboard.press('Tab');
    await expectAttribute(disclosure, 'aria-expanded', 'false');
    assert.notEqual(await focusedText(), parent.children[parent.children.length - 1].name);
    // Back with Shift+Tab to the (closed) dropdown's button; Enter opens it, Enter on
    // a subcategory follows it.
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focusedLabel(), `submenu-${parent.slug}`);
    await page.keyboard.press('Enter');
    await expectAttribute(disclosure, 'aria-expanded', 'true');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expectURL(page, (url) => url.pathname.replace(/\/$/, '') === `/product-category/${first.slug}`, `be /product-category/${first.slug}`);
    await expectAttribute(disclosure, 'aria-expanded', 'false');
  });

  shop.test('a tap on a parent opens its dropdown first only on touch screens above 767 px', viewport, async ({ context }) => {
    const parent = await parentCategory();
    const widths = phone ? [viewport.width] : [viewport.width, 800];
    for (const width of widths) {
      const { touch, errors } = await touchContext(context, width, viewport.height);
      try {
        const page = await touch.newPage();
        await openReady(page, '/');
        const nav = primaryNav(page);
        const disclosure = nav.getByRole('button', { name: `${parent.name} subcategories` });
        if (width < 1024) await nav.getByRole('button', { name: 'Menu' }).tap();
        const link = nav.getByRole('link', { name: parent.name, exact: true });
        await link.tap();
        const target = (url) => url.pathname.replace(/\/$/, '') === `/product-category/${parent.slug}`;
        if (width >= 768) {
          // The first tap opens the dropdown and stays on the page…
          await expectAttribute(disclosure, 'aria-expanded', 'true');
          await nav.getByRole('link', { name: parent.children[0].name, exact: true }).waitFor();
          assert.equal(new URL(page.url()).pathname, '/', `at ${width} px the first tap does not follow the link`);
          // …the second follows the link.
          await link.tap();
          await expectURL(page, target, `at ${width} px the second tap follows the link`);
        } else {
          await expectURL(page, target, `at ${width} px the first tap follows the link`);
        }
        assert.deepEqual(errors, []);
      } finally {
        await touch.close();
      }
    }
  });
});

// ---------------------------------------------------------------------------------
// The header cart dropdown

perViewport((viewport) => {
  shop.test('the header cart dropdown keeps a long list to 15em and scrolls it from 768 px', viewport, async ({ page, shot }) => {
    const listOf = () => page.getByTestId('mini-cart-items');
    const openDropdown = async () => {
      await page.getByRole('button', { name: 'Show cart contents' }).click();
      await listOf().waitFor();
    };
    const measure = () =>
      listOf().evaluate((list) => {
        const style = getComputedStyle(list);
        return { maxHeight: style.maxHeight, overflowY: style.overflowY, scrollHeight: list.scrollHeight, clientHeight: list.clientHeight, fontSize: parseFloat(style.fontSize) };
      });

    const [one, ...more] = await simpleProducts(8);
    await addToCartVia(page, one.id);
    await page.goto('/');
    await openDropdown();
    assert.equal((await measure()).maxHeight, 'none', 'a short list is left at its length');
    await page.keyboard.press('Escape');

    for (const product of more) await addToCartVia(page, product.id);
    await page.reload();
    await openDropdown();
    await expectCount(listOf().getByRole('listitem'), 8);
    const list = await measure();
    if (viewport.width >= 768) {
      assert.equal(list.maxHeight, `${15 * list.fontSize}px`, 'the list is kept to 15em');
      assert.equal(list.overflowY, 'auto');
      assert.ok(list.scrollHeight > list.clientHeight, `the list scrolls (${list.scrollHeight} > ${list.clientHeight})`);
    } else {
      // A phone's dropdown fills the screen under the header and scrolls as a whole.
      assert.equal(list.maxHeight, 'none');
    }
    const dropdown = page.getByRole('region', { name: 'Cart contents' });
    for (const name of ['View cart', 'Checkout']) {
      const button = dropdown.getByRole('link', { name, exact: true });
      if (viewport.width < 768) await button.scrollIntoViewIfNeeded();
      const box = await button.boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= viewport.height, `${name} is in view: ${JSON.stringify(box)}`);
    }
    await expectNoAxeViolations(page, 'the header cart dropdown with many lines');
    await shot('theme-cart-dropdown');
  });
});

// ---------------------------------------------------------------------------------
// The phone's footer bar

perViewport((viewport) => {
  const phone = viewport.width < 768;

  shop.test('the footer bar: account, search and cart on phones only', viewport, async ({ page, shot }) => {
    await page.goto('/');
    const bar = footerBar(page);
    if (!phone) {
      assert.equal(await bar.isVisible(), false, 'no footer bar from 768 px');
      assert.equal(await page.getByRole('searchbox', { name: 'Search products' }).isVisible(), true, 'the header shows its search');
      return;
    }
    await bar.waitFor();
    const barBox = await bar.boundingBox();
    assert.ok(Math.abs(barBox.y + barBox.height - viewport.height) <= 1, `the bar sits at the bottom of the screen: ${JSON.stringify(barBox)}`);
    const account = bar.getByRole('link', { name: 'My account' });
    assert.equal(await account.getAttribute('href'), '/my-account');
    await expectText(page.getByTestId('footer-bar-count'), '0');
    await bar.getByRole('link', { name: 'Cart (0 items)' }).waitFor();

    // The page keeps room for the bar: at the very bottom nothing hides behind it.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await waitFor(async () => {
      const copyright = await page.getByRole('contentinfo').locator('p').last().boundingBox();
      const top = (await bar.boundingBox()).y;
      assert.ok(copyright.y + copyright.height <= top, `the footer’s last line (${copyright.y + copyright.height}) ends above the bar (${top})`);
    }, { message: 'the end of the page clear of the bar' });
    await expectNoAxeViolations(page, 'the home page with the footer bar');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot('theme-footer-bar');

    // Search: the header's search opens with the cursor in it, and the bar steps aside
    // while the keyboard is up.
    const search = page.getByRole('searchbox', { name: 'Search products' });
    assert.equal(await search.isVisible(), false, 'the phone’s header keeps its search folded away');
    const toggle = bar.getByRole('button', { name: 'Search' });
    await expectAttribute(toggle, 'aria-expanded', 'false');
    await toggle.click();
    await search.waitFor();
    await waitFor(() => search.evaluate((field) => document.activeElement === field), { message: 'the search field to have focus' });
    await waitFor(async () => assert.equal(await bar.isVisible(), false, 'the bar steps aside while the search has focus'), { message: 'the bar hidden' });
    assert.equal(await page.evaluate(() => document.body.classList.contains('sf-input-focused')), true);
    await expectNoAxeViolations(page, 'the phone’s search open');
    await shot('theme-phone-search');
    // Escape folds it away again, focus back on the bar's button.
    await page.keyboard.press('Escape');
    await search.waitFor({ state: 'hidden' });
    await bar.waitFor();
    await expectAttribute(toggle, 'aria-expanded', 'false');
    await waitFor(() => toggle.evaluate((button) => document.activeElement === button), { message: 'focus back on Search' });
    // A search sent from it lists the results and folds it away.
    await toggle.click();
    await search.fill('mug');
    await search.press('Enter');
    await expectURL(page, (url) => url.pathname.startsWith('/shop') && url.searchParams.get('s') === 'mug', 'the search results');
    await search.waitFor({ state: 'hidden' });
    await bar.waitFor();

    // The cart's count follows the cart.
    const [product] = await simpleProducts(1);
    await page.goto(`/product/${product.slug}/`);
    await page.getByRole('button', { name: 'Add to cart', exact: true }).click();
    await expectText(page.getByTestId('footer-bar-count'), '1');
    await bar.getByRole('link', { name: 'Cart (1 item)' }).waitFor();
    assert.equal((await cartOf(page)).items_count, 1);

    // Filling in a form outside the bar hides it: from its first field until focus
    // leaves the form (its other controls included, so the bar never comes back under
    // the finger tapping them).
    await page.goto('/my-account');
    const login = page.getByRole('form', { name: 'Login' });
    const bodyHides = () => page.evaluate(() => document.body.classList.contains('sf-input-focused'));
    // A checkbox alone raises no keyboard: the bar stays.
    await login.getByRole('checkbox').focus();
    assert.equal(await bar.isVisible(), true, 'a checkbox leaves the bar in place');
    await login.locator('input[name="username"]').focus();
    await waitFor(async () => assert.equal(await bar.isVisible(), false), { message: 'the bar hidden while the login field has focus' });
    assert.equal(await bodyHides(), true);
    await login.getByRole('button', { name: 'Show password' }).focus();
    assert.equal(await bar.isVisible(), false, 'still hidden on the same form’s button');
    await page.getByRole('heading', { level: 1 }).click();
    await bar.waitFor();
    assert.equal(await bodyHides(), false);
  });
});

// ---------------------------------------------------------------------------------
// The brands A–Z page

/** Brands of the shop's own beyond the demo's, so the page has a "#" group, an
 *  accented name and long enough a page to scroll: imported once, as an owner would. */
let extraBrands = null;
function importExtraBrands() {
  extraBrands ??= (async () => {
    const rows = [
      ['3 Sprouts', 'Sprout Planter'],
      ['Anvil Works', 'Anvil Bottle Opener'],
      ['Aster Press', 'Aster Notebook'],
      ['Bramble Goods', 'Bramble Jam Spoon'],
      ['Émile Studio', 'Émile Desk Tray'],
      ['Orla', 'Orla Scarf'],
      ['Quarry & Co', 'Quarry Coaster Set'],
      ['Vale Ceramics', 'Vale Mug'],
      ['Wren & Wool', 'Wren Socks'],
      ['Yarrow', 'Yarrow Candle'],
    ];
    const csv = path.join(tmpdir(), `ferroshop-theme-brands-${process.pid}.csv`);
    const cell = (value) => (/[",]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
    writeFileSync(
      csv,
      ['Type,SKU,Name,Published,Visibility in catalog,Regular price,Brands', ...rows.map(([brand, name], i) => ['simple', `THEME-${i}`, name, '1', 'visible', '12.00', brand].map(cell).join(','))].join('\n'),
    );
    try {
      shop.command('products', 'import', csv);
    } finally {
      rmSync(csv, { force: true });
    }
    await waitFor(async () => {
      const { data } = await shop.api.get('/products/brands');
      assert.ok(rows.every(([brand]) => data.some((b) => decodeEntities(b.name) === brand && b.count > 0)), 'the imported brands are listed');
    }, { timeout: 15_000, message: 'the imported brands to be in the shop' });
  })();
  return extraBrands;
}

/** A name as the index reads it: accents aside, in lower case. */
const folded = (name) => name.trim().normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** Names in the index's order: by their folded form. */
const byName = (names) => [...names].sort((a, b) => (folded(a) < folded(b) ? -1 : folded(a) > folded(b) ? 1 : 0));

/** The groups the page should show: brands with products by first letter, accents aside. */
function expectedGroups(brands) {
  const letterOf = (name) => {
    const first = folded(name).charAt(0).toUpperCase();
    return first >= 'A' && first <= 'Z' ? first : '#';
  };
  const groups = new Map();
  for (const brand of brands.filter((b) => b.count > 0)) {
    const name = decodeEntities(brand.name);
    const letter = letterOf(name);
    groups.set(letter, [...(groups.get(letter) ?? []), name]);
  }
  const order = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ#'];
  return new Map([...groups].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)));
}

perViewport((viewport) => {
  shop.test('the brands A–Z page groups every brand under its letter and jumps to each', viewport, async ({ page, shot }) => {
    await importExtraBrands();
    const groups = expectedGroups((await shop.api.get('/products/brands')).data);
    assert.ok(groups.has('#') && groups.has('E'), 'a # group and an accented name among the brands');

    // Reached from the footer's Brands column.
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'All brands A–Z' }).click();
    await expectURL(page, (url) => url.pathname.replace(/\/$/, '') === '/brands', 'be /brands');
    await page.getByRole('heading', { level: 1, name: 'Brands' }).waitFor();
    await waitFor(async () => assert.equal(await page.title(), 'Brands – Ferroshop'), { message: 'the tab title' });
    const server = await (await page.request.get('/brands/')).text();
    assert.ok(server.includes('<title>Brands – Ferroshop</title>'), 'the server names the page');
    assert.ok(server.includes('Émile Studio') && server.includes('brands-other'), 'the server renders the groups');

    // Each group: its letter as a heading, its brands in name order, linking to their pages.
    const main = page.getByRole('main');
    const headings = await main.getByRole('heading', { level: 2 }).allTextContents();
    assert.deepEqual(headings.map((h) => h.trim()), [...groups.keys()]);
    for (const [letter, names] of groups) {
      const section = main.getByRole('region', { name: letter, exact: true });
      const shown = await section.getByRole('link').evaluateAll((links) => links.map((a) => a.querySelector('span')?.textContent ?? ''));
      assert.deepEqual(shown, byName(names), `the ${letter} group`);
    }
    await main.getByRole('link', { name: /^Émile Studio/ }).waitFor();

    // The index: A to Z and #, letters without brands disabled.
    const index = page.getByRole('navigation', { name: 'Brands A to Z' });
    const entries = index.getByRole('link');
    await expectCount(entries, 27);
    for (const letter of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ#']) {
      const entry = index.getByRole('link', { name: letter, exact: true });
      await expectAttribute(entry, 'aria-disabled', groups.has(letter) ? null : 'true');
    }
    await expectNoAxeViolations(page, 'the brands page');
    await shot('theme-brands');

    // A letter jumps to its group, clear of the sticky header.
    await index.getByRole('link', { name: '#', exact: true }).click();
    await expectURL(page, (url) => url.hash === '#brands-other', 'the # group’s anchor');
    await waitFor(async () => {
      const header = await page.getByRole('banner').boundingBox();
      const heading = await main.getByRole('heading', { level: 2, name: '#' }).boundingBox();
      assert.ok(heading.y >= header.y + header.height && heading.y + heading.height <= viewport.height, `the # heading at ${heading.y}, header ends at ${header.y + header.height}`);
    }, { message: 'the # group in view below the header' });

    const placement = () =>
      index.evaluate((nav) => ({
        position: getComputedStyle(nav).position,
        top: nav.getBoundingClientRect().top,
        headerBottom: document.querySelector('header').getBoundingClientRect().bottom,
      }));
    if (viewport.width > 768) {
      // The index follows the scroll, 20 px below the sticky header.
      await page.evaluate(() => window.scrollTo(0, 0));
      const start = await placement();
      await page.evaluate((by) => window.scrollTo(0, by), start.top);
      await waitFor(async () => {
        const now = await placement();
        assert.equal(now.position, 'sticky');
        assert.ok(Math.abs(now.top - (now.headerBottom + 20)) <= 1, `index top ${now.top}, header bottom ${now.headerBottom}`);
      }, { message: 'the index 20 px below the header' });
      await shot('theme-brands-scrolled');
    } else {
      assert.equal((await placement()).position, 'static', 'on phones the index stays at the top');
    }

    // A brand page's breadcrumb leads back here.
    await main.getByRole('link', { name: /^Meridian/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Meridian' }).waitFor();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Brands' }).click();
    await expectURL(page, (url) => url.pathname.replace(/\/$/, '') === '/brands', 'be /brands again');
  });
});

// ---------------------------------------------------------------------------------
// Password toggles

/** The field's toggle says "Show password", shows it, then says "Hide password". */
async function expectPasswordToggle(field, label) {
  await field.fill('Correct-Horse-42');
  await expectAttribute(field, 'type', 'password');
  const wrapper = field.locator('xpath=..');
  await wrapper.getByRole('button', { name: 'Show password', exact: true }).click();
  await expectAttribute(field, 'type', 'text');
  const hide = wrapper.getByRole('button', { name: 'Hide password', exact: true });
  await hide.waitFor();
  await hide.click();
  await expectAttribute(field, 'type', 'password');
  await wrapper.getByRole('button', { name: 'Show password', exact: true }).waitFor();
  assert.equal(await field.inputValue(), 'Correct-Horse-42', `${label}: the password is kept`);
}

perViewport((viewport) => {
  shop.test('every password field has a show/hide toggle that says what it will do', viewport, async ({ page, shot }) => {
    await page.goto('/my-account');
    await expectPasswordToggle(page.getByRole('form', { name: 'Login' }).locator('input[name="password"]'), 'login');
    await expectPasswordToggle(page.getByRole('form', { name: 'Register' }).locator('input[name="password"]'), 'registration');
    await expectNoAxeViolations(page, 'the login and registration forms');
    await shot('theme-password-toggles');

    await page.goto('/my-account/lost-password?key=some-key&login=someone');
    const reset = page.getByRole('form', { name: 'Reset password' });
    await expectPasswordToggle(reset.locator('#password_1'), 'new password');
    await expectPasswordToggle(reset.locator('#password_2'), 're-entered password');

    await addToCartVia(page, (await simpleProducts(1))[0].id);
    await openCheckout(page);
    await page.getByLabel('Create an account?').check();
    await expectPasswordToggle(page.locator('#account_password'), 'checkout account password');

    const email = `theme-${viewport.width}-${Date.now()}@example.com`;
    const registered = await restPost(page, '/account/register', { email, password: 'Correct-Horse-42' });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    await page.goto('/my-account/edit-account');
    const details = page.getByRole('form', { name: 'Account details' });
    for (const id of ['account_password_current', 'account_password_1', 'account_password_2']) {
      await expectPasswordToggle(details.locator(`#${id}`), id);
    }
    // From the top: scrolled, the sticky header covers part of the account's menu.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectNoAxeViolations(page, 'the account details form');
  });
});

// ---------------------------------------------------------------------------------
// The store notice

perViewport((viewport) => {
  shop.test('the store notice shows until dismissed, and a new notice shows again', viewport, async ({ page, context, shot }) => {
    await page.goto('/');
    const notice = storeNotice(page);
    await notice.waitFor();
    assert.match(await notice.textContent(), /Free shipping on orders over \$50 this week — shop now/);
    assert.equal(await notice.getByRole('link', { name: 'shop now' }).getAttribute('href'), '/shop');
    // In the first response, above the header.
    const html = await (await page.request.get('/')).text();
    assert.ok(html.includes(`data-notice-id="${NOTICE_ID}"`), 'the server renders the notice');
    assert.ok(html.indexOf(`data-notice-id="${NOTICE_ID}"`) < html.indexOf('<header'), 'the notice comes before the header');
    await expectNoAxeViolations(page, 'the home page with the store notice');
    await shot('theme-store-notice');

    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await notice.waitFor({ state: 'detached' });
    const cookie = (await context.cookies()).find((c) => c.name === `store_notice${NOTICE_ID}`);
    assert.ok(cookie, `the cookie store_notice${NOTICE_ID} is set`);
    assert.equal(cookie.value, 'hidden');
    assert.equal(cookie.path, '/');

    // Gone from every page from now on, in the server's HTML too.
    await page.getByRole('contentinfo').getByRole('link', { name: 'All brands A–Z' }).click();
    await page.getByRole('heading', { level: 1, name: 'Brands' }).waitFor();
    await expectCount(storeNotice(page), 0);
    await page.reload();
    await expectCount(storeNotice(page), 0);
    const after = await (await page.request.get('/')).text();
    assert.ok(!after.includes('data-notice-id'), 'the server leaves a dismissed notice out');
    assert.equal(JSON.parse(after.match(/<script id="ferroshop-settings" type="application\/json">(.*?)<\/script>/s)[1]).store_notice, null);

    if (viewport !== DESKTOP) return;
    // The shop changes its notice (a new id): the same browser sees it again.
    const changed = await startServer({ env: { FERROSHOP_STORE_NOTICE: 'Closed on Monday for stocktaking.', FERROSHOP_STORE_NOTICE_ID: 'week-2' } });
    try {
      await page.goto(`${changed.baseURL}/`);
      await page.waitForSelector('html[data-app="ready"]', { state: 'attached' });
      await expectTextContaining(storeNotice(page), 'Closed on Monday for stocktaking.');
      assert.ok((await context.cookies(changed.baseURL)).some((c) => c.name === `store_notice${NOTICE_ID}`), 'the old dismissal is still there');
    } finally {
      await changed.stop();
    }
  });

  shop.test(
    'without scripts the notice and the phone’s search still show, and nothing that needs scripts does',
    viewport,
    async ({ page }) => {
      await page.goto('/');
      await storeNotice(page).waitFor();
      assert.equal(await storeNotice(page).getByRole('button', { name: 'Dismiss' }).isVisible(), false, 'no Dismiss button that cannot work');
      await page.getByRole('searchbox', { name: 'Search products' }).waitFor();
      if (viewport.width < 768) {
        const bar = footerBar(page);
        await bar.getByRole('link', { name: 'My account' }).waitFor();
        assert.equal(await bar.getByRole('button', { name: 'Search' }).isVisible(), false, 'no Search button that cannot work');
      }
    },
    { javaScriptEnabled: false },
  );
});

// ---------------------------------------------------------------------------------
// No layout shift with the notice and the footer bar in the page

for (const viewport of VIEWPORTS) {
  test(`home and product pages do not shift with the notice and the footer bar at ${viewport.width} px`, { timeout: TEST_TIMEOUT_MS }, () =>
    shop.run(
      viewport,
      async ({ page }) => {
        await page.addInitScript(() => {
          window.__layoutShift = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__layoutShift += entry.value;
          }).observe({ type: 'layout-shift', buffered: true });
        });
        const [product] = await simpleProducts(1);
        for (const url of ['/', `/product/${product.slug}/`]) {
          await page.goto(url);
          await storeNotice(page).waitFor();
          if (viewport.width < 768) await footerBar(page).waitFor();
          // Every image in view loaded, and two frames painted after.
          await page.waitForFunction(() => [...document.images].every((image) => image.complete || image.loading === 'lazy'));
          await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
          const shift = await page.evaluate(() => window.__layoutShift);
          assert.ok(shift < 0.02, `${url}: layout shift ${shift.toFixed(4)} (at most 0.02)`);
          await expectNoAxeViolations(page, `${url} with the notice and the footer bar`);
        }
      },
      { name: `layout shift ${viewport.name}` },
    ),
  );
}

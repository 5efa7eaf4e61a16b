// Browsing the catalogue: category navigation (the "Menu" button on phones), the
// result count, sorting and pagination, checked against the live Store API.

import assert from 'node:assert/strict';
import { decodeEntities, formatPrice, priceBounds, resultCountText } from './support/api.mjs';
import { expectAttribute, expectCount, expectText, expectTextContaining, expectURL, expectValue, textOf, waitFor } from './support/checks.mjs';
import { perViewport, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);
const PER_PAGE = 12;

/** A listing page as the storefront asks for it (its default order is menu_order ascending). */
function listing(params) {
  return shop.api.products({ orderby: 'menu_order', order: 'asc', per_page: PER_PAGE, ...params });
}

/** Top-level categories as the header shows them: those with products, at most six. */
async function navCategories() {
  const categories = await shop.api.categories();
  return categories.filter((c) => c.parent === 0 && c.count > 0 && c.slug !== 'uncategorized').slice(0, 6);
}

/** A header category with more than one page of products, and one with a single page. */
async function pickCategories() {
  const listed = [];
  for (const category of await navCategories()) {
    const { total } = await listing({ category: category.slug });
    listed.push({ ...category, name: decodeEntities(category.name), total });
  }
  const big = listed.find((c) => c.total > PER_PAGE);
  const small = listed.find((c) => c.total > 1 && c.total <= PER_PAGE);
  assert.ok(big && small, `expected header categories with more and with fewer than ${PER_PAGE} products: ${JSON.stringify(listed)}`);
  return { big, small };
}

/** Follows the header's link to a category; on narrow screens through the "Menu" button. */
async function openCategoryFromNav(page, viewport, name) {
  const nav = page.getByRole('navigation', { name: 'Primary' });
  const link = nav.getByRole('link', { name, exact: true });
  if (viewport.width < 1024) {
    const toggle = nav.getByRole('button', { name: 'Menu' });
    await expectAttribute(toggle, 'aria-expanded', 'false');
    assert.equal(await link.isVisible(), false, 'the category links are folded away until the menu opens');
    await toggle.click();
    await expectAttribute(nav.getByRole('button', { name: 'Close' }), 'aria-expanded', 'true');
    await link.click();
    // Following a link closes the menu again.
    await expectAttribute(nav.getByRole('button', { name: 'Menu' }), 'aria-expanded', 'false');
  } else {
    await expectCount(nav.getByRole('button', { name: 'Menu' }), 0);
    await link.click();
  }
}

function productGrid(page, heading) {
  return page.getByRole('main').getByRole('list', { name: heading, exact: true });
}

/** Waits until the grid shows exactly these products, in this order. */
async function expectCards(grid, products) {
  const names = products.map((p) => decodeEntities(p.name));
  await waitFor(
    async () => {
      const shown = await grid.getByRole('article').evaluateAll((cards) => cards.map((card) => card.getAttribute('aria-label')));
      assert.deepEqual(shown, names);
    },
    { message: `the product cards ${JSON.stringify(names)}` },
  );
}

perViewport((viewport) => {
  shop.test('browse a category from the header navigation', viewport, async ({ page, shot }) => {
    const { big, small } = await pickCategories();

    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Goods that get better with use.' }).waitFor();
    await page.getByRole('heading', { name: 'Popular right now' }).waitFor();
    await shot('home');

    for (const category of [big, small]) {
      await openCategoryFromNav(page, viewport, category.name);
      await expectURL(page, (url) => url.pathname.replace(/\/$/, '') === `/product-category/${category.slug}`, `be /product-category/${category.slug}`);
      await page.getByRole('heading', { level: 1, name: category.name, exact: true }).waitFor();
      await expectText(page.getByTestId('result-count'), resultCountText(category.total));
      assert.match(
        await textOf(page.getByTestId('result-count')),
        category.total > PER_PAGE ? new RegExp(`^Showing 1\u201312 of ${category.total} results$`) : new RegExp(`^Showing all ${category.total} results$`),
      );
      const firstPage = await listing({ category: category.slug });
      assert.equal(firstPage.total, category.total, 'X-WP-Total');
      await expectCards(productGrid(page, category.name), firstPage.data);
      await expectText(page.getByRole('navigation', { name: 'Breadcrumb' }).locator('[aria-current="page"]'), category.name);
      await waitFor(async () => assert.equal(await page.title(), `${category.name} – Ferroshop`), { message: 'the tab title' });
      if (category === big) await shot('category');
    }
  });

  shop.test('sort a category by price and page through the shop', viewport, async ({ page, shot }) => {
    const { big } = await pickCategories();
    const everything = await shop.api.products({ category: big.slug, per_page: 100 });
    assert.equal(everything.data.length, big.total);
    const lowest = everything.data.reduce((min, p) => (priceBounds(p).low < min ? priceBounds(p).low : min), priceBounds(everything.data[0]).low);
    const highest = everything.data.reduce((max, p) => (priceBounds(p).high > max ? priceBounds(p).high : max), priceBounds(everything.data[0]).high);
    const currency = everything.data[0].prices;

    await page.goto(`/product-category/${big.slug}`);
    const grid = productGrid(page, big.name);
    const order = page.getByRole('combobox', { name: 'Shop order' });
    await expectValue(order, 'menu_order');
    await expectCards(grid, (await listing({ category: big.slug })).data);

    // Low to high: ?orderby=price, and the first card is the cheapest of the whole category.
    await order.selectOption({ label: 'Sort by price: low to high' });
    await expectURL(page, (url) => url.searchParams.get('orderby') === 'price', 'have orderby=price');
    const ascending = await listing({ category: big.slug, orderby: 'price', order: 'asc' });
    await expectCards(grid, ascending.data);
    assert.equal(priceBounds(ascending.data[0]).low, lowest, 'the API lists the cheapest product first');
    await expectTextContaining(grid.getByRole('article').first(), formatPrice(lowest, currency));
    await expectValue(order, 'price');
    await expectText(page.getByTestId('result-count'), resultCountText(big.total));

    // High to low: ?orderby=price-desc, the dearest first.
    await order.selectOption({ label: 'Sort by price: high to low' });
    await expectURL(page, (url) => url.searchParams.get('orderby') === 'price-desc', 'have orderby=price-desc');
    const descending = await listing({ category: big.slug, orderby: 'price', order: 'desc' });
    await expectCards(grid, descending.data);
    assert.equal(priceBounds(descending.data[0]).high, highest, 'the API lists the dearest product first');
    await expectTextContaining(grid.getByRole('article').first(), formatPrice(highest, currency));
    await expectValue(order, 'price-desc');

    // Pagination on /shop.
    const all = await listing({});
    assert.ok(all.totalPages >= 2, 'the demo shop has more than one page of products');
    await page.goto('/shop');
    await page.getByRole('heading', { level: 1, name: 'Shop', exact: true }).waitFor();
    await expectText(page.getByTestId('result-count'), resultCountText(all.total, 1));
    await expectCards(productGrid(page, 'Shop'), all.data);
    const pagination = page.getByRole('navigation', { name: 'Product Pagination' });
    await expectText(pagination.locator('[aria-current="page"]'), 'Page 1');
    await pagination.getByRole('link', { name: 'Page 2', exact: true }).click();
    await expectURL(page, (url) => url.pathname === '/shop' && url.searchParams.get('page') === '2', 'have page=2');
    await expectText(page.getByTestId('result-count'), `Showing 13\u201324 of ${all.total} results`);
    await expectCards(productGrid(page, 'Shop'), (await listing({ page: 2 })).data);
    await expectText(pagination.locator('[aria-current="page"]'), 'Page 2');
    await pagination.getByRole('link', { name: 'Previous page' }).waitFor();
    await shot('shop-page-2');
  });
});

// The shop with JavaScript switched off: browsing (menu, category pages, sorting,
// pagination, search), the product form (with a variable product's options), the
// original shop's ?add-to-cart=ID link, and the cart page's form all work, because
// every page arrives rendered and every action is a plain link or form.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cartOf, decodeEntities, resultCountText } from './support/api.mjs';
import { expectURL } from './support/checks.mjs';
import { perViewport, TEST_TIMEOUT_MS, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);
const NO_SCRIPT = { javaScriptEnabled: false };

async function simpleProduct() {
  return shop.api.pickProduct('simple product in stock', (p) => p.type === 'simple' && p.is_in_stock && p.is_purchasable && !p.sold_individually);
}

const notice = (page, text) => page.getByRole('main').getByText(text, { exact: false }).first();

perViewport((viewport) => {
  shop.test(
    'browsing: the menu, a category, sorting, the next page and search',
    viewport,
    async ({ page, shot }) => {
      const [category] = (await shop.api.categories()).filter((c) => c.parent === 0 && c.count > 0);
      await page.goto('/');
      await page.getByRole('navigation', { name: 'Primary' }).getByRole('link', { name: decodeEntities(category.name), exact: true }).click();
      await expectURL(page, (url) => url.pathname.startsWith(`/product-category/${category.slug}`), 'the category page');
      await page.getByText(resultCountText(category.count)).waitFor();

      await page.goto('/shop/');
      await page.getByRole('combobox', { name: 'Shop order' }).selectOption('price');
      await page.getByRole('button', { name: 'Sort', exact: true }).click();
      await expectURL(page, (url) => url.searchParams.get('orderby') === 'price', 'the shop sorted by price');
      const { data: cheapest } = await shop.api.products({ orderby: 'price', order: 'asc', per_page: 1 });
      await page.getByRole('main').getByRole('link', { name: decodeEntities(cheapest[0].name) }).first().waitFor();

      await page.getByRole('navigation', { name: 'Product Pagination' }).getByRole('link', { name: 'Next page' }).click();
      await expectURL(page, (url) => url.searchParams.get('page') === '2' && url.searchParams.get('orderby') === 'price', 'page two, still by price');
      await shot('no-script-shop-page-2');

      await page.getByRole('searchbox', { name: 'Search products' }).fill('tee');
      await page.getByRole('searchbox', { name: 'Search products' }).press('Enter');
      await expectURL(page, (url) => url.pathname.startsWith('/shop') && url.searchParams.get('s') === 'tee', 'the search results');
      await page.getByRole('heading', { name: 'Search results: “tee”', level: 1 }).waitFor();
    },
    NO_SCRIPT,
  );

  shop.test(
    'the product form adds to the cart and says so',
    viewport,
    async ({ page, shot }) => {
      const product = await simpleProduct();
      await page.goto(`/product/${product.slug}/`);
      await page.getByRole('spinbutton').fill('2');
      await page.getByRole('button', { name: 'Add to cart', exact: true }).click();
      await notice(page, `“${decodeEntities(product.name)}” have been added to your cart.`).waitFor();
      const cart = await cartOf(page);
      assert.equal(cart.items_count, 2);
      assert.equal(cart.items[0].id, product.id);
      await shot('no-script-product-added');
    },
    NO_SCRIPT,
  );

  shop.test(
    'a variable product: options chosen with the form, then added',
    viewport,
    async ({ page }) => {
      const product = await shop.api.pickProduct('variable product in stock', (p) => p.type === 'variable' && p.is_in_stock);
      await page.goto(`/product/${product.slug}/`);
      // Each option as the shop offers it: a drop-down, or swatches (radio buttons).
      const selects = page.locator('select[name^="attribute_"]');
      const groups = page.locator('fieldset:has(input[type="radio"][name^="attribute_"])');
      const count = (await selects.count()) + (await groups.count());
      assert.ok(count > 0, 'the product has options to choose');
      for (let n = 0; n < (await selects.count()); n += 1) {
        const values = await selects.nth(n).locator('option').evaluateAll((options) => options.map((o) => o.value).filter(Boolean));
        await selects.nth(n).selectOption(values[0]);
      }
      for (let n = 0; n < (await groups.count()); n += 1) {
        await groups.nth(n).locator('label.swatch:has(input:not([disabled]))').first().click();
      }
      await page.getByRole('button', { name: 'Choose options' }).click();
      await expectURL(page, (url) => [...url.searchParams.keys()].some((k) => k.startsWith('attribute_')), 'the chosen options in the address');
      const add = page.getByRole('button', { name: 'Add to cart', exact: true });
      assert.equal(await add.isDisabled(), false, 'the chosen variation can be added');
      await add.click();
      await notice(page, 'has been added to your cart.').waitFor();
      const cart = await cartOf(page);
      assert.equal(cart.items_count, 1);
      assert.ok(product.variations.some((v) => v.id === cart.items[0].id), 'a variation of the product is in the cart');
    },
    NO_SCRIPT,
  );

  shop.test(
    'the ?add-to-cart=ID link adds once and the cart form updates and removes',
    viewport,
    async ({ page, shot }) => {
      const product = await simpleProduct();
      const name = decodeEntities(product.name);
      await page.goto(`/shop/?add-to-cart=${product.id}`);
      await expectURL(page, (url) => url.searchParams.get('added-to-cart') === String(product.id) && !url.searchParams.has('add-to-cart'), 'the link, answered');
      await notice(page, `“${name}” has been added to your cart.`).waitFor();
      // Reloading the answer adds nothing more.
      await page.reload();
      assert.equal((await cartOf(page)).items_count, 1);

      await page.goto('/cart/');
      await page.getByRole('spinbutton', { name: `${name} quantity` }).fill('3');
      await page.getByRole('button', { name: 'Update cart' }).click();
      await notice(page, 'Cart updated.').waitFor();
      assert.equal((await cartOf(page)).items[0].quantity, 3);
      await shot('no-script-cart-updated');

      await page.getByRole('button', { name: `Remove ${name} from cart` }).click();
      await notice(page, `“${name}” removed.`).waitFor();
      await page.getByText('Your cart is currently empty.').waitFor();
      assert.equal((await cartOf(page)).items_count, 0);
    },
    NO_SCRIPT,
  );
});

test('an add-to-cart link followed from another site adds nothing', { timeout: TEST_TIMEOUT_MS }, async () => {
  const product = await simpleProduct();
  const first = await fetch(new URL('/shop/', shop.baseURL));
  const cookie = first.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const res = await fetch(new URL(`/shop/?add-to-cart=${product.id}`, shop.baseURL), {
    headers: { cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
    redirect: 'manual',
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get('location'), '/shop/');
  const cart = await fetch(new URL('/wp-json/wc/store/v1/cart', shop.baseURL), { headers: { cookie } }).then((r) => r.json());
  assert.equal(cart.items_count, 0);
});

test('a form posted from another site is refused', { timeout: TEST_TIMEOUT_MS }, async () => {
  const product = await simpleProduct();
  const res = await fetch(new URL(`/product/${product.slug}/`, shop.baseURL), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' },
    body: `add-to-cart=${product.id}&quantity=1`,
    redirect: 'manual',
  });
  assert.equal(res.status, 403);
});

// The cart: the header's mini-cart, the cart page (quantities, removal, the empty
// cart) and two tabs of one visitor keeping their carts in step. Each test starts
// with its own cookies; carts are filled through the shop's add-to-cart call and
// checked against GET /cart with the page's own cookies.

import assert from 'node:assert/strict';
import { addToCartVia, cartOf, decodeEntities, formatPrice } from './support/api.mjs';
import { eventually, expectAttribute, expectCount, expectHeaderCartName, expectText, expectTextContaining, expectURL, waitFor } from './support/checks.mjs';
import { perViewport, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);

/** Simple products that can be bought one at a time, several of them. */
async function simpleProducts(count) {
  const products = (await shop.api.allProducts()).filter(
    (p) => p.type === 'simple' && p.is_purchasable && p.is_in_stock && p.add_to_cart.minimum <= 1 && p.add_to_cart.maximum >= 5 && !p.sold_individually,
  );
  assert.ok(products.length >= count, `the demo shop has ${count} simple products to buy`);
  return products.slice(0, count).map((p) => ({ ...p, name: decodeEntities(p.name) }));
}

perViewport((viewport) => {
  shop.test('the mini-cart lists the items, their subtotal, and removes one', viewport, async ({ page, shot }) => {
    const [first, second] = await simpleProducts(2);
    await addToCartVia(page, first.id, 2);
    await addToCartVia(page, second.id, 1);
    const cart = await cartOf(page);
    assert.equal(cart.items_count, 3);

    await page.goto('/');
    const count = page.getByTestId('header-cart-count');
    await expectText(count, '3');
    // The link's name is its visible text (the total where the header has room for it,
    // then the count) with words around it.
    const total = formatPrice(cart.totals.total_items, cart.totals);
    await expectText(page.getByTestId('header-cart-total'), total);
    await expectHeaderCartName(page, total, 3);

    const toggle = page.getByRole('button', { name: 'Show cart contents' });
    await expectAttribute(toggle, 'aria-expanded', 'false');
    await toggle.click();
    const miniCart = page.getByRole('region', { name: 'Cart contents' });
    await expectAttribute(page.getByRole('button', { name: 'Hide cart contents' }), 'aria-expanded', 'true');
    const lines = miniCart.getByRole('listitem');
    await expectCount(lines, 2);
    for (const item of cart.items) {
      const line = lines.filter({ has: page.getByRole('link', { name: decodeEntities(item.name), exact: true }) });
      await expectTextContaining(line, `${item.quantity} \u00d7 ${formatPrice(item.prices.price, item.prices)}`);
    }
    await expectTextContaining(miniCart, `Subtotal: ${formatPrice(cart.totals.total_items, cart.totals)}`);
    await expectAttribute(miniCart.getByRole('link', { name: 'View cart', exact: true }), 'href', '/cart');
    // The dropdown fits the screen.
    const box = await miniCart.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= viewport.width + 1, `the mini-cart (${JSON.stringify(box)}) fits ${viewport.width} px`);
    await shot('mini-cart');

    await miniCart.getByRole('button', { name: `Remove ${first.name} from cart` }).click();
    await expectCount(lines, 1);
    await expectText(count, '1');
    const after = await eventually(() => cartOf(page), (c) => c.items.length === 1 && c.items[0].id === second.id, 'the server cart to hold only the second product');
    await expectTextContaining(miniCart, `Subtotal: ${formatPrice(after.totals.total_items, after.totals)}`);
    await expectCount(lines.filter({ hasText: second.name }), 1);

    // Escape closes the dropdown and returns focus to its toggle.
    await page.keyboard.press('Escape');
    await expectAttribute(toggle, 'aria-expanded', 'false');
    assert.equal(await miniCart.isVisible(), false);
    await waitFor(() => toggle.evaluate((el) => el === document.activeElement), { message: 'focus back on the cart toggle' });
  });

  shop.test('the cart page: change a quantity, remove an item, empty the cart', viewport, async ({ page, shot }) => {
    const [first, second] = await simpleProducts(2);
    await addToCartVia(page, first.id, 1);
    await addToCartVia(page, second.id, 1);

    await page.goto('/cart');
    await page.getByRole('heading', { level: 1, name: 'Cart' }).waitFor();
    const rows = page.getByTestId('cart-item');
    await expectCount(rows, 2);
    const rowOf = (product) => rows.filter({ has: page.getByRole('link', { name: product.name, exact: true }) });

    // A new quantity reaches the server (after a short pause), and the totals follow.
    await rowOf(first).getByRole('spinbutton', { name: `${first.name} quantity` }).fill('3');
    const updated = await eventually(
      () => cartOf(page),
      (c) => c.items.find((i) => i.id === first.id)?.quantity === 3,
      'the server cart to hold 3 of the first product',
    );
    const line = updated.items.find((i) => i.id === first.id);
    assert.equal(BigInt(line.totals.line_subtotal), BigInt(first.prices.price) * 3n);
    await expectText(rowOf(first).locator('[data-title="Subtotal"]'), formatPrice(line.totals.line_subtotal, line.totals));
    await expectText(page.getByTestId('cart-subtotal'), formatPrice(updated.totals.total_items, updated.totals));
    await expectText(page.getByTestId('cart-total'), formatPrice(updated.totals.total_price, updated.totals));
    await expectText(page.getByTestId('header-cart-count'), '4');
    await shot('cart');

    // Removing a line.
    await rowOf(second).getByRole('button', { name: `Remove ${second.name} from cart` }).click();
    await expectCount(rows, 1);
    await page.getByRole('status').filter({ hasText: `\u201c${second.name}\u201d removed.` }).waitFor();
    const afterRemoval = await cartOf(page);
    assert.deepEqual(
      afterRemoval.items.map((i) => [i.id, i.quantity]),
      [[first.id, 3]],
    );
    await expectText(page.getByTestId('cart-total'), formatPrice(afterRemoval.totals.total_price, afterRemoval.totals));
    await expectText(page.getByTestId('header-cart-count'), '3');

    // Emptying it.
    await rowOf(first).getByRole('button', { name: `Remove ${first.name} from cart` }).click();
    await page.getByText('Your cart is currently empty.', { exact: true }).waitFor();
    await expectCount(rows, 0);
    await expectText(page.getByTestId('header-cart-count'), '0');
    assert.equal((await cartOf(page)).items_count, 0);
    await shot('cart-empty');

    await page.getByRole('main').getByRole('link', { name: 'Return to shop' }).click();
    await expectURL(page, (url) => url.pathname === '/shop', 'be /shop');
    await page.getByRole('heading', { level: 1, name: 'Shop', exact: true }).waitFor();
  });

  shop.test('two tabs keep the cart in step without reloading', viewport, async ({ page, context }) => {
    const [product] = await simpleProducts(1);
    const other = await context.newPage();
    await other.goto('/');
    await expectText(other.getByTestId('header-cart-count'), '0');
    // A marker that a reload would wipe out.
    await other.evaluate(() => {
      window.__sameDocument = true;
    });

    // Playwright's clicks wait for animation frames, which a background tab barely gets.
    await page.bringToFront();
    await page.goto(`/product/${product.slug}`);
    const add = page.getByRole('main').getByRole('button', { name: 'Add to cart', exact: true });
    await add.click();
    await expectAttribute(add, 'data-state', 'added');
    await expectText(page.getByTestId('header-cart-count'), '1');

    // The other tab follows.
    await expectText(other.getByTestId('header-cart-count'), '1');
    const otherCart = await cartOf(other);
    await expectHeaderCartName(other, formatPrice(otherCart.totals.total_items, otherCart.totals), 1);

    // And the other way round: removing it there empties the cart here.
    await other.bringToFront();
    await other.getByRole('button', { name: 'Show cart contents' }).click();
    await other.getByRole('region', { name: 'Cart contents' }).getByRole('button', { name: `Remove ${product.name} from cart` }).click();
    await expectText(other.getByTestId('header-cart-count'), '0');
    await expectText(page.getByTestId('header-cart-count'), '0');
    assert.equal(await other.evaluate(() => window.__sameDocument), true, 'the other tab was not reloaded');
    assert.equal((await cartOf(page)).items_count, 0);
  });
});

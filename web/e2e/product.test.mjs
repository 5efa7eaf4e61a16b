// Product pages: buying a simple product (quantity limits, the button's states, the
// "View cart" link, the header count, the screen-reader message), choosing and
// buying a variation, and the pages that cannot be bought here (out of stock, external).

import assert from 'node:assert/strict';
import { cartOf, chooseOption, decodeEntities, formatPrice, stockText } from './support/api.mjs';
import {
  eventually,
  expectAttribute,
  expectCount,
  expectDisabled,
  expectHeaderCartName,
  expectText,
  expectTextContaining,
  expectValue,
  textOf,
  waitFor,
} from './support/checks.mjs';
import { perViewport, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);

const isWcAjax = (action) => (url) => url.searchParams.get('wc-ajax') === action;

/** The product page's own add-to-cart button (cards on the page name theirs after the product). */
function purchaseButton(page) {
  return page.getByRole('main').getByRole('button', { name: 'Add to cart', exact: true });
}

async function openProduct(page, product) {
  await page.goto(`/product/${product.slug}`);
  await page.getByRole('main').getByRole('heading', { level: 1, name: decodeEntities(product.name), exact: true }).waitFor();
}

/** A simple product to buy; one with a minimum quantity above 1 when the shop has one. */
async function simpleProductToBuy() {
  const buyable = (await shop.api.allProducts()).filter((p) => p.type === 'simple' && p.is_purchasable && p.is_in_stock);
  assert.ok(buyable.length > 0, 'the demo shop has simple products in stock');
  return buyable.find((p) => p.add_to_cart.minimum > 1) ?? buyable[0];
}

/** "Aurora Hoodie", or else any variable product choosing between two or more attributes. */
async function variableProduct() {
  const all = await shop.api.allProducts();
  const twoAttributes = (p) => p.type === 'variable' && p.attributes.filter((a) => a.has_variations).length >= 2;
  const listed = all.find((p) => p.name === 'Aurora Hoodie' && twoAttributes(p)) ?? all.find(twoAttributes);
  assert.ok(listed, 'the demo shop has a variable product with two attributes');
  return shop.api.product(listed.id);
}

perViewport((viewport) => {
  shop.test('a simple product: details, quantity minimum, add to cart', viewport, async ({ page, shot }) => {
    const product = await simpleProductToBuy();
    const name = decodeEntities(product.name);
    const minimum = Math.max(1, product.add_to_cart.minimum);
    const main = page.getByRole('main');

    await openProduct(page, product);
    await expectTextContaining(page.getByTestId('product-price'), formatPrice(product.prices.price, product.prices));
    await expectText(page.getByTestId('stock-status'), stockText(product));
    const image = page.getByTestId('product-main-image').getByRole('img');
    await expectAttribute(image, 'src', product.images[0].src);
    await expectAttribute(image, 'alt', product.images[0].alt);
    await waitFor(() => image.evaluate((img) => img.complete && img.naturalWidth > 0), { message: 'the product image to load' });
    await waitFor(async () => assert.equal(await page.title(), `${name} – Ferroshop`), { message: 'the tab title' });

    // The quantity starts at the minimum, and a lower value is raised to it on blur.
    const quantity = main.getByRole('spinbutton', { name: `${name} quantity` });
    await expectValue(quantity, String(minimum));
    await expectAttribute(quantity, 'min', String(minimum));
    await quantity.fill('0');
    await expectValue(quantity, '0');
    await quantity.blur();
    await expectValue(quantity, String(minimum));

    await expectText(page.getByTestId('header-cart-count'), '0');

    // Hold the add-to-cart call until the loading state has been seen.
    let release;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    await page.route(isWcAjax('add_to_cart'), async (route) => {
      await held;
      await route.continue();
    });
    const button = purchaseButton(page);
    await expectAttribute(button, 'data-state', 'idle');
    await button.click();
    await expectAttribute(button, 'data-state', 'loading');
    await expectAttribute(button, 'aria-busy', 'true');
    await expectCount(main.getByRole('link', { name: 'View cart', exact: true }), 0);
    release();

    await expectAttribute(button, 'data-state', 'added');
    await expectAttribute(button, 'aria-busy', 'false');
    const viewCart = main.getByRole('link', { name: 'View cart', exact: true });
    await expectAttribute(viewCart, 'href', '/cart');
    assert.deepEqual(
      await button.evaluate((el) => [el.nextElementSibling?.tagName, el.nextElementSibling?.textContent]),
      ['A', 'View cart'],
      'the View cart link comes right after the button',
    );
    await expectText(page.getByTestId('header-cart-count'), String(minimum));
    const cart = await cartOf(page);
    assert.deepEqual(
      cart.items.map((item) => [item.id, item.quantity]),
      [[product.id, minimum]],
    );
    await expectText(page.getByTestId('header-cart-total'), formatPrice(cart.totals.total_items, cart.totals));
    await expectHeaderCartName(page, formatPrice(cart.totals.total_items, cart.totals), minimum);
    // Screen readers hear about it a second later, through the polite live region.
    await expectText(page.locator('#a11y-speak-polite'), `\u201c${name}\u201d has been added to your cart.`, { timeout: 5000 });
    await page.unroute(isWcAjax('add_to_cart'));
    await shot('product-simple');

    await viewCart.click();
    await page.getByRole('heading', { level: 1, name: 'Cart' }).waitFor();
    await expectCount(page.getByTestId('cart-item'), 1);
  });

  shop.test('a variable product: choose colour and size, add the variation', viewport, async ({ page, shot }) => {
    const product = await variableProduct();
    const name = decodeEntities(product.name);
    const attributes = product.attributes.filter((a) => a.has_variations);
    const variations = await Promise.all(product.variations.map((ref) => shop.api.product(ref.id)));
    const refOf = (variation) => product.variations.find((ref) => ref.id === variation.id);
    const buyable = variations.filter((v) => v.is_in_stock && v.is_purchasable);
    const target =
      buyable.find((v) => BigInt(v.prices.price) < BigInt(v.prices.regular_price)) ??
      buyable.find((v) => v.low_stock_remaining > 0) ??
      buyable[0];
    assert.ok(target, `${name} has a variation in stock`);
    const soldOut = variations.find((v) => !v.is_in_stock);
    const main = page.getByRole('main');
    const details = page.getByTestId('variation-details');
    const button = purchaseButton(page);

    /** Picks each attribute's option for the variation, checking the button until the choice is complete. */
    async function choose(variation) {
      const clear = main.getByRole('button', { name: 'Clear', exact: true });
      if (await clear.isVisible()) await clear.click();
      for (const [index, attribute] of attributes.entries()) {
        const value = refOf(variation).attributes.find((a) => a.name === attribute.name)?.value;
        assert.ok(value, `variation ${variation.id} names its ${attribute.name}`);
        await chooseOption(main, attribute, value);
        if (index < attributes.length - 1) await expectDisabled(button);
      }
    }

    /** The term names of a variation's options: "Color: Forest, Size: S". */
    const optionsText = (variation) =>
      attributes
        .map((attribute) => {
          const value = refOf(variation).attributes.find((a) => a.name === attribute.name).value;
          const term = attribute.terms.find((t) => t.slug === value);
          return `${decodeEntities(attribute.name)}: ${decodeEntities(term?.name ?? value)}`;
        })
        .join(', ');

    await openProduct(page, product);
    const range = product.prices.price_range;
    await expectTextContaining(page.getByTestId('product-price'), formatPrice(range.min_amount, product.prices));
    await expectTextContaining(page.getByTestId('product-price'), formatPrice(range.max_amount, product.prices));
    await expectDisabled(button);
    await expectText(details, '');

    if (soldOut) {
      await choose(soldOut);
      await expectTextContaining(details, formatPrice(soldOut.prices.price, soldOut.prices));
      await expectText(details.getByTestId('stock-status'), 'Out of stock');
      await expectDisabled(button);
    }

    await choose(target);
    // The price and stock follow the chosen variation (GET /products/{variation id}).
    await expectText(details.getByTestId('stock-status'), stockText(target));
    await expectTextContaining(details, formatPrice(target.prices.price, target.prices));
    if (BigInt(target.prices.price) < BigInt(target.prices.regular_price)) {
      await expectText(details.locator('del'), `Original price was: ${formatPrice(target.prices.regular_price, target.prices)}`);
    }
    if (target.images[0]) await expectAttribute(page.getByTestId('product-main-image').getByRole('img'), 'src', target.images[0].src);
    await expectDisabled(button, false);
    await shot('product-variable');

    await button.click();
    await expectAttribute(button, 'data-state', 'added');
    await expectText(page.getByTestId('header-cart-count'), '1');
    const cart = await cartOf(page);
    assert.equal(cart.items.length, 1);
    assert.equal(cart.items[0].id, target.id);
    const expectedOptions = optionsText(target);
    assert.equal(cart.items[0].variation.map((v) => `${v.attribute}: ${v.value}`).join(', '), expectedOptions);

    // The mini-cart lists the variation with its options.
    await page.getByRole('button', { name: 'Show cart contents' }).click();
    const miniCart = page.getByRole('region', { name: 'Cart contents' });
    const line = miniCart.getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) });
    await expectCount(line, 1);
    await expectTextContaining(line, expectedOptions);
    await expectTextContaining(line, `1 \u00d7 ${formatPrice(target.prices.price, target.prices)}`);
  });

  shop.test('out-of-stock and external products cannot be added here', viewport, async ({ page, shot }) => {
    const all = await shop.api.allProducts();
    const soldOut = all.find((p) => p.type === 'simple' && !p.is_in_stock);
    const external = all.find((p) => p.type === 'external' && p.add_to_cart.url);
    assert.ok(soldOut && external, 'the demo shop has an out-of-stock simple product and an external product');
    const main = page.getByRole('main');

    await openProduct(page, soldOut);
    await expectText(page.getByTestId('stock-status'), 'Out of stock');
    await expectTextContaining(page.getByTestId('product-price'), formatPrice(soldOut.prices.price, soldOut.prices));
    // No enabled add-to-cart button outside the related products' cards.
    const strayButtons = await main
      .getByRole('button')
      .evaluateAll((buttons) =>
        buttons.filter((b) => !b.closest('article') && !b.disabled && /add to cart/i.test(b.getAttribute('aria-label') || b.textContent)).length,
      );
    assert.equal(strayButtons, 0);
    await expectCount(purchaseButton(page), 0);
    await expectCount(main.getByRole('spinbutton'), 0);
    await shot('product-out-of-stock');

    const name = decodeEntities(external.name);
    const text = decodeEntities(external.add_to_cart.text);
    await openProduct(page, external);
    const buy = main.getByRole('link', { name: text, exact: true });
    await expectAttribute(buy, 'href', external.add_to_cart.url);
    await expectAttribute(buy, 'rel', /\bnofollow\b/);
    await expectCount(purchaseButton(page), 0);
    await expectCount(main.getByRole('spinbutton'), 0);
    await shot('product-external');

    // Its card in a listing (search results) links out too.
    await page.goto(`/shop?s=${encodeURIComponent(name)}`);
    const card = main.getByRole('article', { name, exact: true });
    await expectAttribute(card.getByRole('link', { name: text, exact: true }), 'href', external.add_to_cart.url);
    // And the sold-out product's card offers its page, not the cart.
    await page.goto(`/shop?s=${encodeURIComponent(decodeEntities(soldOut.name))}`);
    const soldOutCard = main.getByRole('article', { name: decodeEntities(soldOut.name), exact: true });
    await expectAttribute(soldOutCard.getByRole('link', { name: 'Read more' }), 'href', `/product/${soldOut.slug}`);
    // No cart button (its wishlist heart is the card's only one).
    await expectCount(soldOutCard.getByRole('button', { name: /cart/i }), 0);
    assert.ok((await textOf(soldOutCard)).includes(decodeEntities(soldOut.name)));
  });
});

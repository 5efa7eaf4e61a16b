// The product page beyond buying: variation swatches (chosen by keyboard alone, their
// disabled, sold-out and "Only N left in stock" states, and a product with more
// variations than its page carries asking the shop per choice), the tabs and the
// address rules that open them, the sticky add-to-cart bar, upsells, recently viewed
// products, cross-sells on the cart page, quantity minimums and products sold one to
// an order.

import assert from 'node:assert/strict';
import path from 'node:path';
import { addToCartVia, cartOf, decodeEntities } from './support/api.mjs';
import { eventually, expectAttribute, expectCount, expectDisabled, expectNoAxeViolations, expectText, expectTextContaining, expectValue } from './support/checks.mjs';
import { perViewport, SCREENSHOT_DIR, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);
// A shop whose product pages carry no variations: each choice asks `get_variation`.
const perChoice = useShop(import.meta.url, { env: { FERROSHOP_VARIATION_THRESHOLD: '1' } });

async function variationForm(target, id) {
  const res = await fetch(`${target.baseURL}/wp-json/ferroshop/v1/products/${id}/variation-form`);
  assert.equal(res.status, 200);
  return res.json();
}

async function openProduct(page, product) {
  await page.goto(`/product/${product.slug}/`);
  await page.getByRole('main').getByRole('heading', { level: 1, name: decodeEntities(product.name), exact: true }).waitFor();
}

/** A variable product whose colours are swatches, with a variation nearly sold out when there is one. */
async function swatchProduct(target) {
  const candidates = (await target.api.allProducts()).filter((p) => p.type === 'variable' && p.is_in_stock);
  let fallback = null;
  for (const product of candidates) {
    const form = await variationForm(target, product.id);
    if (!form.attributes.some((a) => a.swatch === 'color')) continue;
    fallback ??= { product, form };
    const low = Array.isArray(form.variations) && form.variations.find((v) => v.variation_stock_left > 0 && v.variation_stock_left <= form.stock_label_threshold);
    if (low) return { product, form, low };
  }
  assert.ok(fallback, 'the demo shop has a variable product with colour swatches');
  return fallback;
}

/** Chooses a swatch by keyboard alone: Tab into the group, arrows to the option. */
async function chooseByKeyboard(page, field, value) {
  const radios = page.locator(`input[type="radio"][name="${field}"]`);
  const values = await radios.evaluateAll((inputs) => inputs.filter((input) => !input.disabled).map((input) => input.value));
  const target = values.indexOf(value);
  assert.ok(target >= 0, `${value} can be chosen`);
  await radios.locator(':scope:not([disabled])').first().focus();
  // A group with nothing chosen takes the focus on its first option; arrows move and choose.
  for (let step = 0; step < target; step += 1) await page.keyboard.press('ArrowRight');
  if (target === 0) await page.keyboard.press('Space');
  await eventually(() => page.locator(`input[type="radio"][name="${field}"][value="${value}"]`).isChecked(), (checked) => checked, `${value} to be chosen`);
}

perViewport((viewport) => {
  shop.test('swatches: chosen by keyboard, disabled where no variation exists, and how many are left', viewport, async ({ page, shot }) => {
    const { product, form, low } = await swatchProduct(shop);
    await openProduct(page, product);
    const main = page.getByRole('main');
    const color = form.attributes.find((a) => a.swatch === 'color');
    const group = main.getByRole('group', { name: new RegExp(`^${color.name}`) });
    await expectCount(group.locator('label.swatch'), color.options.length);
    // Each colour swatch shows its colour.
    const first = color.options[0];
    const chip = group.locator(`label.swatch[data-value="${first.value}"] span[aria-hidden="true"]`).first();
    const background = await chip.evaluate((node) => getComputedStyle(node).backgroundColor);
    const hex = first.color.replace('#', '');
    const rgb = `rgb(${parseInt(hex.slice(0, 2), 16)}, ${parseInt(hex.slice(2, 4), 16)}, ${parseInt(hex.slice(4, 6), 16)})`;
    assert.equal(background, rgb, `the ${first.label} swatch is ${first.color}`);

    const target = low ?? form.variations.find((v) => v.is_in_stock);
    for (const attribute of form.attributes) {
      const value = target.attributes[attribute.field];
      if (attribute.swatch === 'select') await main.locator(`select[name="${attribute.field}"]`).selectOption(value);
      else await chooseByKeyboard(page, attribute.field, value);
    }
    await expectTextContaining(main.getByRole('group', { name: new RegExp(`^${color.name}: `) }).locator('legend'), color.options.find((o) => o.value === target.attributes[color.field]).label);
    if (low) {
      // The last attribute's chosen swatch says how many are left.
      const last = form.attributes[form.attributes.length - 1];
      const swatch = main.locator(`label.swatch:has(input[name="${last.field}"][value="${target.attributes[last.field]}"])`);
      await expectTextContaining(swatch, `Only ${low.variation_stock_left} left in stock`);
      await expectTextContaining(swatch, `${low.variation_stock_left} left`);
    }
    // Options no variation offers with this choice are disabled.
    const offered = new Set(form.variations.filter((v) => v.attributes[color.field] === target.attributes[color.field] || v.attributes[color.field] === '').flatMap((v) => Object.values(v.attributes)));
    const size = form.attributes.find((a) => a !== color);
    if (size) {
      for (const option of size.options) {
        const input = main.locator(`input[name="${size.field}"][value="${option.value}"], select[name="${size.field}"] option[value="${option.value}"]`);
        if (!offered.has(option.value)) assert.equal(await input.isDisabled(), true, `${option.value} is disabled`);
      }
    }
    await expectNoAxeViolations(page, `swatches at ${viewport.width} px`);
    await shot('product-swatches');
    // The chosen variation can be added.
    await expectDisabled(main.getByRole('button', { name: 'Add to cart', exact: true }), false);
  });

  perChoice.test('a product with more variations than its page carries asks the shop for each choice', viewport, async ({ page }) => {
    const { product, form } = await swatchProduct(perChoice);
    assert.equal(form.variations, false, 'the page carries no variations');
    const lookups = [];
    page.on('request', (request) => {
      if (new URL(request.url()).searchParams.get('wc-ajax') === 'get_variation') lookups.push(request.postData());
    });
    await openProduct(page, product);
    const main = page.getByRole('main');
    const ref = product.variations[0];
    for (const attribute of product.attributes.filter((a) => a.has_variations)) {
      const value = ref.attributes.find((a) => a.name === attribute.name).value;
      const field = `attribute_${attribute.taxonomy}`;
      const select = main.locator(`select[name="${field}"]`);
      if ((await select.count()) > 0) await select.selectOption(value);
      else await main.locator(`label.swatch:has(input[name="${field}"][value="${value}"])`).click();
    }
    await eventually(() => lookups.length, (n) => n === 1, 'one get_variation call');
    const sent = new URLSearchParams(lookups[0]);
    assert.equal(sent.get('product_id'), String(product.id));
    await eventually(() => main.getByTestId('variation-details').textContent(), (text) => text.trim() !== '', 'the variation details');
  });

  shop.test('tabs: the address opens one, arrows move between them, and the reviews open for their hash', viewport, async ({ page, shot }) => {
    const product = (await shop.api.allProducts()).find((p) => p.type === 'simple' && p.is_in_stock);
    await page.goto(`/product/${product.slug}/#tab-additional_information`);
    const tab = (name) => page.getByRole('tab', { name: new RegExp(`^${name}`) });
    await expectAttribute(tab('Additional information'), 'aria-selected', 'true');
    await expectAttribute(page.getByRole('tabpanel', { name: 'Additional information' }), 'hidden', null);
    // Keyboard only: the open tab is the one in the tab order.
    await tab('Additional information').focus();
    await page.keyboard.press('ArrowLeft');
    await expectAttribute(tab('Description'), 'aria-selected', 'true');
    await page.keyboard.press('End');
    const last = page.getByRole('tab').last();
    await expectAttribute(last, 'aria-selected', 'true');
    await page.keyboard.press('Home');
    await expectAttribute(tab('Description'), 'aria-selected', 'true');
    await page.goto(`/product/${product.slug}/`);
    await expectAttribute(tab('Description'), 'aria-selected', 'true');
    await expectNoAxeViolations(page, `tabs at ${viewport.width} px`);
    await shot('product-tabs');
  });

  shop.test('the sticky bar slides in once the buying controls scroll away, and takes a variable product back to them', viewport, async ({ page }) => {
    const { product } = await swatchProduct(shop);
    await openProduct(page, product);
    const bar = page.getByTestId('sticky-add-to-cart');
    await expectAttribute(bar, 'data-shown', 'false');
    await page.evaluate(() => window.scrollBy(0, 2400));
    await expectAttribute(bar, 'data-shown', 'true');
    await eventually(() => bar.evaluate((node) => node.getBoundingClientRect().top), (top) => top >= 0, 'the bar to slide in');
    await expectTextContaining(bar, decodeEntities(product.name));
    // What the window shows (a full-page shot would bring the controls back into view).
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `product-sticky-bar-${viewport.width}px.png`) });
    await bar.getByRole('button', { name: 'Select options' }).click();
    await expectAttribute(bar, 'data-shown', 'false');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('name') ?? '');
    assert.match(focused, /^attribute_/, 'the first option has the focus');
  });

  shop.test('upsells, recently viewed products, and cross-sells on the cart page', viewport, async ({ page, shot }) => {
    const all = await shop.api.allProducts();
    const withUpsells = all.find((p) => (p.extensions?.ferroshop?.upsell_ids ?? []).length > 0 && p.type === 'simple');
    assert.ok(withUpsells, 'a demo product suggests others');
    const other = all.find((p) => p.id !== withUpsells.id && p.type === 'simple');
    await openProduct(page, other);
    await openProduct(page, withUpsells);
    const upsells = page.getByRole('region', { name: 'You may also like…' });
    await expectCount(upsells.getByRole('listitem'), withUpsells.extensions.ferroshop.upsell_ids.length);
    const recent = page.getByRole('region', { name: 'Recently viewed products' });
    await expectTextContaining(recent, decodeEntities(other.name));
    await expectCount(recent.getByRole('link', { name: decodeEntities(withUpsells.name), exact: true }), 0);

    await addToCartVia(page, withUpsells.id, 1);
    const cart = await cartOf(page);
    assert.ok(cart.cross_sells.length > 0, 'the cart suggests something');
    await page.goto('/cart');
    const cross = page.getByRole('region', { name: 'You may be interested in…' });
    for (const suggested of cart.cross_sells) await expectTextContaining(cross, decodeEntities(suggested.name));
    await expectNoAxeViolations(page, `cross-sells at ${viewport.width} px`);
    await shot('cart-cross-sells');
  });

  shop.test('a quantity below the minimum starts at it; a product sold one to an order has no quantity', viewport, async ({ page }) => {
    const all = await shop.api.allProducts();
    const minimum = all.find((p) => p.type === 'simple' && p.is_in_stock && p.add_to_cart.minimum > 1);
    if (minimum) {
      await page.goto(`/product/${minimum.slug}/?quantity=1`);
      await expectValue(page.getByRole('main').getByRole('spinbutton').first(), String(minimum.add_to_cart.minimum));
    }
    const single = all.find((p) => p.type === 'simple' && p.is_in_stock && p.sold_individually);
    assert.ok(single, 'the demo shop sells something one to an order');
    await openProduct(page, single);
    const summary = page.getByRole('main').locator('form[method="post"]').first();
    await expectCount(summary.getByRole('spinbutton'), 0);
    await expectText(summary.getByRole('button', { name: 'Add to cart', exact: true }), 'Add to cart');
  });
});

// The shop's filter panel: a sidebar at 1280 px, a "Filters" dialog on phones.
// Filters the demo shop by a colour and a price band, checks the grid against the
// Store API and the counts against collection data, then clears the filters; the
// same on a category page and a brand page, whose counts cover only their products.
// axe-core checks each page with the panel open.

import assert from 'node:assert/strict';
import { decodeEntities, formatPrice, priceBounds, resultCountText } from './support/api.mjs';
import { expectAttribute, expectCount, expectNoAxeViolations, expectText, waitFor } from './support/checks.mjs';
import { perViewport, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);

const COUNTS = {
  calculate_price_range: 'true',
  calculate_price_bands: 'true',
  'calculate_attribute_counts[0][taxonomy]': 'pa_color',
  'calculate_attribute_counts[0][query_type]': 'or',
};

/** A colour with products and a price band holding some (not all) of them. */
async function pickColourAndBand() {
  const { data: attributes } = await shop.api.get('/products/attributes');
  const colour = attributes.find((attribute) => attribute.taxonomy === 'pa_color');
  assert.ok(colour, 'the demo shop has a Color attribute');
  const { data: terms } = await shop.api.get(`/products/attributes/${colour.id}/terms`);
  for (const term of terms.filter((t) => t.count > 1)) {
    const filter = { 'attributes[0][attribute]': 'pa_color', 'attributes[0][slug]': term.slug, 'attributes[0][operator]': 'in' };
    const { data } = await shop.api.get('/products/collection-data', { ...filter, ...COUNTS });
    const band = data.price_bands.find((b) => b.count > 0 && b.count < term.count);
    if (band) return { colour, term, band, filter };
  }
  throw new Error(`No colour in ${JSON.stringify(terms)} has a price band holding some of its products`);
}

/** The colour checkboxes' names as the panel shows them ("Blue 4 products"). */
function countLabel(name, count) {
  return `${decodeEntities(name)} ${count} ${count === 1 ? 'product' : 'products'}`;
}

/** Waits until each colour with products shows the server's count, and no other colour shows. */
async function expectColourCounts(panel, terms, counts) {
  const group = panel.getByRole('group', { name: 'Color' });
  const expected = terms
    .map((term) => ({ term, count: counts.find((c) => c.term === term.id)?.count ?? 0 }))
    .filter(({ count }) => count > 0)
    .map(({ term, count }) => countLabel(term.name, count));
  await waitFor(
    async () => {
      const shown = await group.getByRole('checkbox').evaluateAll((boxes) =>
        boxes.map((box) => box.closest('label').innerText.replace(/\s+/g, ' ').trim()),
      );
      // The text is the name: "Blue 4" shown, " products" for screen readers.
      assert.deepEqual(shown, expected);
      for (const label of expected) assert.equal(await group.getByRole('checkbox', { name: label, exact: true }).count(), 1, label);
    },
    { message: `colour counts ${JSON.stringify(expected)}` },
  );
}

/** Waits until the grid's cards are `products`, in that order. */
async function expectCards(grid, products, message) {
  await waitFor(
    async () => {
      const shown = await grid.getByRole('article').evaluateAll((cards) => cards.map((card) => card.getAttribute('aria-label')));
      assert.deepEqual(shown, products.map((p) => decodeEntities(p.name)));
    },
    { message },
  );
}

/** Opens the panel on phones (the Filters button) or finds it beside the grid. */
async function openPanel(page, viewport) {
  const main = page.getByRole('main');
  // By its id link, not its role: a modal dialog makes the rest of the page inert.
  const toggle = main.locator('button[aria-controls="catalog-filters"]');
  if (viewport.width < 1024) {
    await expectAttribute(toggle, 'aria-expanded', 'false');
    await toggle.click();
    await expectAttribute(toggle, 'aria-expanded', 'true');
    const panel = page.getByRole('dialog', { name: 'Filters' });
    await panel.waitFor();
    return { panel, toggle };
  }
  await expectCount(toggle, 0);
  const panel = main.getByRole('complementary', { name: 'Filters' });
  await panel.waitFor();
  return { panel, toggle };
}

/**
 * A category or brand (`kind`) whose page lists some products in one colour and
 * some not, with that colour: the filter must change the grid.
 */
async function pickScopeAndColour(kind, terms) {
  const { data: scopes } = await shop.api.get(kind === 'category' ? '/products/categories' : '/products/brands', { per_page: 100 });
  for (const scope of scopes.filter((s) => s.count > 1)) {
    const filter = { [kind]: scope.slug };
    const { total } = await shop.api.products({ ...filter, per_page: 1 });
    const { data } = await shop.api.get('/products/collection-data', { ...filter, ...COUNTS });
    const count = data.attribute_counts.find((c) => c.count > 0 && c.count < total);
    const term = count && terms.find((t) => t.id === count.term);
    if (term) return { scope, filter, total, counts: data.attribute_counts, term, termCount: count.count };
  }
  throw new Error(`No ${kind} has products in some colour and some not`);
}

perViewport((viewport) => {
  shop.test('filter the shop by a colour and a price band, then clear', viewport, async ({ page, shot }) => {
    const { colour, term, band, filter } = await pickColourAndBand();
    const { data: terms } = await shop.api.get(`/products/attributes/${colour.id}/terms`);
    const { data: unfiltered } = await shop.api.get('/products/collection-data', COUNTS);
    const all = await shop.api.products({ per_page: 1 });

    await page.goto('/shop');
    const main = page.getByRole('main');
    await expectText(main.getByText(/^Showing/), resultCountText(all.total));

    // Phones open the panel from the Filters button; wide screens show it beside the grid.
    const { panel, toggle } = await openPanel(page, viewport);
    await expectColourCounts(panel, terms, unfiltered.attribute_counts);
    await expectNoAxeViolations(page, `the shop with its filters open at ${viewport.width} px`);

    // A colour: the address records it and the counts follow the server's.
    // Clicked rather than checked: applying a choice re-renders the panel, so the box
    // that was clicked may already be a new element when its state is read.
    const colourBox = () => panel.getByRole('checkbox', { name: countLabel(term.name, term.count), exact: true });
    await colourBox().click();
    await waitFor(() => new URL(page.url()).searchParams.get('filter_color') === term.slug, { message: 'filter_color in the address' });
    await waitFor(() => colourBox().isChecked(), { message: 'the colour box is ticked' });

    // A price band, as the server counts it for that colour.
    const bandLabel = `${formatPrice(band.min_price, unfiltered.price_range)} – ${formatPrice(band.max_price, unfiltered.price_range)}`;
    const bandBox = () => panel.getByRole('checkbox', { name: countLabel(bandLabel, band.count), exact: true });
    await bandBox().click();
    await waitFor(() => new URL(page.url()).searchParams.get('min_price') === band.min_price, { message: 'min_price in the address' });
    await waitFor(() => bandBox().isChecked(), { message: 'the band box is ticked' });
    const maxPrice = String(BigInt(band.max_price) - 1n);
    const prices = { min_price: band.min_price, max_price: maxPrice };
    const { data: filtered } = await shop.api.get('/products/collection-data', { ...filter, ...prices, ...COUNTS });
    await expectColourCounts(panel, terms, filtered.attribute_counts);
    // From the top: clicking the boxes scrolled the page, and the sticky header then
    // covers part of the breadcrumb (a state no check should judge the page by).
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectNoAxeViolations(page, `the shop with two filters chosen at ${viewport.width} px`);
    if (viewport.width < 1024) {
      await shot('shop filters dialog');
      await page.keyboard.press('Escape');
      await expectAttribute(toggle, 'aria-expanded', 'false');
      await waitFor(() => toggle.evaluate((button) => document.activeElement === button), { message: 'focus back on the Filters button' });
    }

    // The grid lists what the Store API lists for the same filters, and every one matches.
    const expected = await shop.api.products({ ...filter, ...prices, orderby: 'menu_order', order: 'asc', per_page: 12 });
    assert.equal(expected.total, band.count, 'the band counted what the listing lists');
    await expectText(main.getByText(/^Showing/), resultCountText(expected.total));
    await expectCards(main.getByRole('list', { name: 'Shop', exact: true }), expected.data, 'the filtered product cards');
    for (const product of expected.data) {
      const colours = product.attributes.find((a) => a.taxonomy === 'pa_color')?.terms.map((t) => t.slug) ?? [];
      assert.ok(colours.includes(term.slug), `${product.name} comes in ${term.slug}`);
      const { low, high } = priceBounds(product);
      assert.ok(high >= BigInt(band.min_price) && low < BigInt(band.max_price), `${product.name} is priced within the band`);
    }
    const chips = main.getByRole('group', { name: 'Active filters' });
    await chips.getByRole('button', { name: `Remove filter: ${decodeEntities(colour.name)}: ${decodeEntities(term.name)}` }).waitFor();
    await shot('shop filtered');

    // Clear filters: the address, the chips and the full listing come back.
    await chips.getByRole('button', { name: 'Clear filters' }).click();
    await waitFor(() => new URL(page.url()).search === '', { message: 'no filters in the address' });
    await expectCount(main.getByRole('group', { name: 'Active filters' }), 0);
    await expectText(main.getByText(/^Showing/), resultCountText(all.total));

    // The back button restores the filtered listing.
    await page.goBack();
    await waitFor(() => new URL(page.url()).searchParams.get('filter_color') === term.slug, { message: 'the filters back after Back' });
    await expectText(main.getByText(/^Showing/), resultCountText(expected.total));
  });

  for (const kind of ['category', 'brand']) {
    shop.test(`filter a ${kind} page by a colour`, viewport, async ({ page, shot }) => {
      const { data: attributes } = await shop.api.get('/products/attributes');
      const colour = attributes.find((attribute) => attribute.taxonomy === 'pa_color');
      const { data: terms } = await shop.api.get(`/products/attributes/${colour.id}/terms`);
      const { scope, filter, total, counts, term, termCount } = await pickScopeAndColour(kind, terms);

      await page.goto(kind === 'category' ? `/product-category/${scope.slug}` : `/brand/${scope.slug}`);
      const main = page.getByRole('main');
      await expectText(main.getByRole('heading', { level: 1 }), decodeEntities(scope.name));
      await expectText(main.getByText(/^Showing/), resultCountText(total));

      // The counts are this page's: only its products, not the whole shop's.
      const { panel, toggle } = await openPanel(page, viewport);
      await expectColourCounts(panel, terms, counts);
      await expectNoAxeViolations(page, `a ${kind} page with its filters open at ${viewport.width} px`);

      await panel.getByRole('checkbox', { name: countLabel(term.name, termCount), exact: true }).click();
      await waitFor(() => new URL(page.url()).searchParams.get('filter_color') === term.slug, { message: 'filter_color in the address' });
      if (viewport.width < 1024) {
        await page.keyboard.press('Escape');
        await expectAttribute(toggle, 'aria-expanded', 'false');
      }

      // The grid is the page's products in that colour, as the Store API lists them.
      const expected = await shop.api.products({
        ...filter,
        'attributes[0][attribute]': 'pa_color',
        'attributes[0][slug]': term.slug,
        'attributes[0][operator]': 'in',
        orderby: 'menu_order',
        order: 'asc',
        per_page: 12,
      });
      assert.equal(expected.total, termCount, 'the panel counted what the listing lists');
      await expectText(main.getByText(/^Showing/), resultCountText(expected.total));
      const grid = main.getByRole('list', { name: decodeEntities(scope.name), exact: true });
      await expectCards(grid, expected.data, `the ${kind} page's cards in ${term.slug}`);
      await shot(`${kind} filtered`);
    });
  }
});

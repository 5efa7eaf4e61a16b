import { describe, expect, it } from 'vitest';
import type { AvailableVariation } from '../api/get-variation-form';
import { carriedVariation, stockLabel, swatchStates } from './swatches';
import type { VariationAttribute } from './variations';

const color: VariationAttribute = {
  name: 'Color',
  fieldName: 'attribute_pa_color',
  taxonomy: 'pa_color',
  options: [
    { value: 'blue', label: 'Blue' },
    { value: 'green', label: 'Green' },
    { value: 'red', label: 'Red' },
  ],
};
const size: VariationAttribute = {
  name: 'Size',
  fieldName: 'attribute_pa_size',
  taxonomy: 'pa_size',
  options: [
    { value: 'm', label: 'M' },
    { value: 'l', label: 'L' },
  ],
};
const attributes = [color, size];

function variation(id: number, c: string, s: string, inStock: boolean, left: number | null): AvailableVariation {
  return {
    variation_id: id,
    attributes: { attribute_pa_color: c, attribute_pa_size: s },
    is_in_stock: inStock,
    is_purchasable: true,
    max_qty: left ?? '',
    min_qty: 1,
    variation_stock_left: left,
    availability_html: '',
    price_html: '',
    sku: '',
    image: null,
  };
}

const carried = [variation(1, 'blue', 'm', true, null), variation(2, 'blue', 'l', true, 3), variation(3, 'green', 'm', false, null)];
const refs = carried.map((v) => ({
  id: v.variation_id,
  attributes: [
    { name: 'Color', value: v.attributes.attribute_pa_color! },
    { name: 'Size', value: v.attributes.attribute_pa_size! },
  ],
}));

const byValue = (states: ReturnType<typeof swatchStates>) => Object.fromEntries(states.map((s) => [s.value, s]));

describe('swatch states', () => {
  it('disables options no variation offers with the other choices', () => {
    const states = byValue(swatchStates(size, attributes, refs, { Color: 'green' }, carried, null, 5));
    expect(states.m!.disabled).toBe(false);
    expect(states.l!.disabled).toBe(true);
    expect(byValue(swatchStates(color, attributes, refs, {}, carried, null, 5)).red!.disabled).toBe(true);
  });

  it('marks an option whose every variation is out of stock', () => {
    const states = byValue(swatchStates(color, attributes, refs, {}, carried, null, 5));
    expect(states.green!.outOfStock).toBe(true);
    expect(states.blue!.outOfStock).toBe(false);
    const sizes = byValue(swatchStates(size, attributes, refs, { Color: 'green' }, carried, null, 5));
    expect(sizes.m!.outOfStock).toBe(true);
  });

  it('says how many are left only at or below the threshold, once the option completes a choice', () => {
    const sizes = byValue(swatchStates(size, attributes, refs, { Color: 'blue' }, carried, null, 5));
    expect(sizes.l!.stockLeft).toBe(3);
    expect(sizes.m!.stockLeft).toBeNull();
    expect(byValue(swatchStates(size, attributes, refs, { Color: 'blue' }, carried, null, 2)).l!.stockLeft).toBeNull();
    expect(byValue(swatchStates(size, attributes, refs, { Color: 'blue' }, carried, null, 3)).l!.stockLeft).toBe(3);
    expect(byValue(swatchStates(size, attributes, refs, { Color: 'blue' }, carried, null, 0)).l!.stockLeft).toBeNull();
    // Not before the choice is complete.
    expect(byValue(swatchStates(color, attributes, refs, {}, carried, null, 5)).blue!.stockLeft).toBeNull();
    expect(stockLabel(3)).toBe('Only 3 left in stock');
  });

  it('marks the chosen option selected', () => {
    const states = byValue(swatchStates(color, attributes, refs, { Color: 'blue' }, carried, null, 5));
    expect(states.blue!.selected).toBe(true);
    expect(states.green!.selected).toBe(false);
  });

  it('reads the looked-up variation when the page carries none', () => {
    const picked = variation(2, 'blue', 'l', true, 2);
    const sizes = byValue(swatchStates(size, attributes, refs, { Color: 'blue', Size: 'l' }, null, picked, 5));
    expect(sizes.l!.stockLeft).toBe(2);
    expect(sizes.m!.stockLeft).toBeNull();
    const soldOut = byValue(swatchStates(size, attributes, refs, { Color: 'green', Size: 'm' }, null, variation(3, 'green', 'm', false, null), 5));
    expect(soldOut.m!.outOfStock).toBe(true);
  });

  it('picks the carried variation of a complete choice, an "any" value matching everything', () => {
    expect(carriedVariation(attributes, carried, { Color: 'blue', Size: 'l' })?.variation_id).toBe(2);
    expect(carriedVariation(attributes, carried, { Color: 'blue' })).toBeNull();
    const any = [variation(9, 'red', '', true, null)];
    expect(carriedVariation(attributes, any, { Color: 'red', Size: 'm' })?.variation_id).toBe(9);
  });
});

import { describe, expect, it } from 'vitest';
import type { Product, VariationRef } from '@/types/store-api';
import hoodie from '@/test/fixtures/store-product-variable.json';
import {
  attributeSlug,
  availableOptions,
  choiceFromSearchParams,
  findMatchingVariation,
  isChoiceComplete,
  variationAttributes,
} from './variations';

// The recorded Hoodie: Color (pa_color: blue, green, red) × Logo (custom: Yes, No),
// with variations blue+Yes (35), red+No (28), green+No (29), blue+No (30).
const product = hoodie as Product;
const attributes = variationAttributes(product);
const [color, logo] = attributes as [(typeof attributes)[0], (typeof attributes)[0]];
const variations = product.variations;

describe('variation attributes', () => {
  it('lists the attributes used for variations with the form field names the shop expects', () => {
    expect(attributes.map((attribute) => [attribute.name, attribute.fieldName])).toEqual([
      ['Color', 'attribute_pa_color'],
      ['Logo', 'attribute_logo'],
    ]);
    expect(color.options).toEqual([
      { value: 'blue', label: 'Blue' },
      { value: 'green', label: 'Green' },
      { value: 'red', label: 'Red' },
    ]);
  });

  it('slugs a custom attribute name like WordPress does', () => {
    expect(attributeSlug('Logo Style')).toBe('logo-style');
    expect(attributeSlug('Größe')).toBe('grosse');
  });
});

describe('which options are available', () => {
  it('offers every option that some variation has while nothing is chosen', () => {
    expect(availableOptions(color, attributes, variations, {})).toEqual(new Set(['blue', 'green', 'red']));
    expect(availableOptions(logo, attributes, variations, {})).toEqual(new Set(['Yes', 'No']));
  });

  it('disables the options that no variation offers with the other choices', () => {
    expect(availableOptions(logo, attributes, variations, { Color: 'red' })).toEqual(new Set(['No']));
    expect(availableOptions(color, attributes, variations, { Logo: 'Yes' })).toEqual(new Set(['blue']));
  });

  it("ignores the attribute's own choice, so the shopper can switch to another option", () => {
    expect(availableOptions(color, attributes, variations, { Color: 'red', Logo: 'No' })).toEqual(
      new Set(['blue', 'green', 'red']),
    );
  });

  it('offers every option of an attribute a matching variation accepts as "any"', () => {
    const anyLogo: VariationRef[] = [{ id: 40, attributes: [{ name: 'Color', value: 'red' }, { name: 'Logo', value: '' }] }];
    expect(availableOptions(logo, attributes, anyLogo, { Color: 'red' })).toEqual(new Set(['Yes', 'No']));
    expect(availableOptions(logo, attributes, anyLogo, { Color: 'blue' })).toEqual(new Set());
  });
});

describe('matching a complete choice to a variation', () => {
  it('finds no variation until every attribute is chosen', () => {
    expect(isChoiceComplete(attributes, { Color: 'blue' })).toBe(false);
    expect(findMatchingVariation(attributes, variations, { Color: 'blue' })).toBeNull();
  });

  it('finds the variation whose values equal the choice', () => {
    expect(findMatchingVariation(attributes, variations, { Color: 'blue', Logo: 'Yes' })?.id).toBe(35);
    expect(findMatchingVariation(attributes, variations, { Color: 'green', Logo: 'No' })?.id).toBe(29);
  });

  it('finds nothing for a combination the product does not have', () => {
    expect(findMatchingVariation(attributes, variations, { Color: 'red', Logo: 'Yes' })).toBeNull();
  });

  it('lets an "any" value match whatever was chosen for that attribute', () => {
    const anyColor: VariationRef[] = [{ id: 41, attributes: [{ name: 'Color', value: '' }, { name: 'Logo', value: 'Yes' }] }];
    expect(findMatchingVariation(attributes, anyColor, { Color: 'green', Logo: 'Yes' })?.id).toBe(41);
  });

  it('accepts variations that name attributes by taxonomy instead of display name', () => {
    const byTaxonomy: VariationRef[] = [{ id: 42, attributes: [{ name: 'pa_color', value: 'red' }, { name: 'Logo', value: 'Yes' }] }];
    expect(findMatchingVariation(attributes, byTaxonomy, { Color: 'red', Logo: 'Yes' })?.id).toBe(42);
  });

  it('reads a preset choice from a variation permalink', () => {
    const params = new URLSearchParams('attribute_pa_color=blue&attribute_logo=Yes&attribute_pa_size=xl');
    expect(choiceFromSearchParams(attributes, params)).toEqual({ Color: 'blue', Logo: 'Yes' });
  });
});

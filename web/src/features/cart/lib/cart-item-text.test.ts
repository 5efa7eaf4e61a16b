import { describe, expect, it } from 'vitest';
import { cartItemDetails, removedMessage } from './cart-item-text';

describe('a cart line in words', () => {
  it('lists the chosen options as "Attribute: Value" pairs', () => {
    expect(
      cartItemDetails({
        variation: [
          { attribute: 'Color', value: 'Navy' },
          { attribute: 'Size', value: 'M' },
        ],
        item_data: [],
      }),
    ).toBe('Color: Navy, Size: M');
  });

  it('adds extra item data and decodes entities', () => {
    expect(
      cartItemDetails({ variation: [{ attribute: 'Logo', value: 'Yes' }], item_data: [{ name: 'Gift note', value: 'For Tom &amp; Ann' }] }),
    ).toBe('Logo: Yes, Gift note: For Tom & Ann');
  });

  it('is empty for a simple product', () => {
    expect(cartItemDetails({ variation: [], item_data: [] })).toBe('');
  });

  it('words a removal like the original shop', () => {
    expect(removedMessage('Beanie')).toBe('“Beanie” removed.');
  });
});

import { describe, expect, it } from 'vitest';
import simple from '@/test/fixtures/store-product-simple.json';
import variable from '@/test/fixtures/store-product-variable.json';
import type { Product } from '@/types/store-api';
import { additionalInformationRows } from './additional-information';

describe('additionalInformationRows', () => {
  it('uses the rows the server sends, decoding entities', () => {
    const product = {
      ...(simple as unknown as Product),
      additional_information: [
        { label: 'Weight', value: '0.45 kg' },
        { label: 'Material', value: 'Cotton &amp; linen' },
      ],
    };
    expect(additionalInformationRows(product)).toEqual([
      ['Weight', '0.45 kg'],
      ['Material', 'Cotton & linen'],
    ]);
  });

  it('falls back to the attributes when the server sends no rows', () => {
    const rows = additionalInformationRows(variable as unknown as Product);
    expect(rows.map(([label]) => label)).toEqual(['Color', 'Logo']);
    expect(rows[0]?.[1]).toBe("Blue, Green, Red");
  });
});

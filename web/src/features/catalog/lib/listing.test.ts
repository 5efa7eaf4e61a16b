import { describe, expect, it } from 'vitest';
import { pageNumbers, parseListing, productListParams } from './listing';

describe('a listing address', () => {
  it('defaults to the first page in default sorting', () => {
    expect(parseListing(new URLSearchParams(''))).toEqual({ orderby: 'menu_order', page: 1, search: '', onSale: false });
  });

  it('turns ?orderby=price-desc&page=2 into the Store API query for that page', () => {
    const listing = parseListing(new URLSearchParams('orderby=price-desc&page=2'));
    expect(productListParams(listing, { category: 'hoodies' })).toEqual({
      orderby: 'price',
      order: 'desc',
      page: 2,
      per_page: 12,
      category: 'hoodies',
    });
  });

  it('passes a search term as search and ignores nonsense page numbers', () => {
    const listing = parseListing(new URLSearchParams('s=+hoodie+&page=-4'));
    expect(productListParams(listing)).toMatchObject({ search: 'hoodie', page: 1 });
  });
});

describe('page numbers', () => {
  it('lists every page when there are few', () => {
    expect(pageNumbers(2, 4)).toEqual([1, 2, 3, 4]);
  });

  it('leaves gaps between the ends and the pages around the current one', () => {
    expect(pageNumbers(10, 20)).toEqual([1, null, 8, 9, 10, 11, 12, null, 20]);
    expect(pageNumbers(1, 20)).toEqual([1, 2, 3, null, 20]);
  });
});

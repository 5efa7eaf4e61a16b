import { describe, expect, it } from 'vitest';
import { ORDERBY_OPTIONS, orderbyFromApi, orderbyToApi, parseOrderby } from './orderby';

describe('catalogue ordering', () => {
  it('offers the six orderings of the original shop with its labels, in its order', () => {
    expect(ORDERBY_OPTIONS.map((option) => [option.value, option.label])).toEqual([
      ['menu_order', 'Default sorting'],
      ['popularity', 'Sort by popularity'],
      ['rating', 'Sort by average rating'],
      ['date', 'Sort by latest'],
      ['price', 'Sort by price: low to high'],
      ['price-desc', 'Sort by price: high to low'],
    ]);
  });

  it('maps each address value to the Store API orderby and order', () => {
    expect(orderbyToApi('menu_order')).toEqual({ orderby: 'menu_order', order: 'asc' });
    expect(orderbyToApi('popularity')).toEqual({ orderby: 'popularity', order: 'desc' });
    expect(orderbyToApi('rating')).toEqual({ orderby: 'rating', order: 'desc' });
    expect(orderbyToApi('date')).toEqual({ orderby: 'date', order: 'desc' });
    expect(orderbyToApi('price')).toEqual({ orderby: 'price', order: 'asc' });
    expect(orderbyToApi('price-desc')).toEqual({ orderby: 'price', order: 'desc' });
  });

  it('maps every Store API pair back to the same address value', () => {
    for (const option of ORDERBY_OPTIONS) {
      expect(orderbyFromApi(option.api.orderby, option.api.order)).toBe(option.value);
    }
    expect(orderbyFromApi('price', 'DESC')).toBe('price-desc');
  });

  it('falls back to the default sorting for a missing or unknown address value', () => {
    expect(parseOrderby(null)).toBe('menu_order');
    expect(parseOrderby('')).toBe('menu_order');
    expect(parseOrderby('cheapest')).toBe('menu_order');
    expect(parseOrderby('price-desc')).toBe('price-desc');
  });
});

import { describe, expect, it } from 'vitest';
import {
  bandFilter,
  filterQuery,
  fromMinorUnits,
  hasFilters,
  NO_FILTERS,
  parseFilters,
  toMinorUnits,
  withFilters,
} from './filters';

const params = (text: string) => new URLSearchParams(text);

describe('filters in the address', () => {
  it('reads every kind of filter', () => {
    const filters = parseFilters(
      params(
        'min_price=2000&max_price=4999&filter_product_cat=hoodies,caps&filter_product_brand=lumen' +
          '&filter_color=blue,green&filter_size=m&filter_stock_status=instock,onbackorder&rating_filter=5,4&on_sale=true',
      ),
    );
    expect(filters).toEqual({
      minPrice: '2000',
      maxPrice: '4999',
      categories: ['hoodies', 'caps'],
      brands: ['lumen'],
      attributes: { pa_color: ['blue', 'green'], pa_size: ['m'] },
      stockStatus: ['instock', 'onbackorder'],
      ratings: [5, 4],
      onSale: true,
    });
  });

  it('ignores what is not a filter value', () => {
    const filters = parseFilters(params('min_price=cheap&max_price=-5&filter_stock_status=sold&rating_filter=0,6,x&filter_color=,,&orderby=price'));
    expect(filters).toEqual(NO_FILTERS);
    expect(hasFilters(filters)).toBe(false);
  });

  it('writes filters back, keeping sorting and search and going to the first page', () => {
    const next = withFilters(params('orderby=price&s=hoodie&page=3&filter_color=red'), {
      ...NO_FILTERS,
      minPrice: '1000',
      attributes: { pa_color: ['blue'], pa_size: [] },
      ratings: [4],
    });
    expect(next.toString()).toBe('orderby=price&s=hoodie&min_price=1000&filter_color=blue&rating_filter=4');
  });

  it('round-trips through the address', () => {
    const filters = {
      ...NO_FILTERS,
      maxPrice: '2999',
      categories: ['decor'],
      attributes: { pa_color: ['blue', 'teal'] },
      stockStatus: ['outofstock' as const],
      onSale: true,
    };
    expect(parseFilters(withFilters(params(''), filters))).toEqual(filters);
  });

  it('clears every filter', () => {
    expect(withFilters(params('filter_color=blue&on_sale=true&min_price=1&orderby=date'), NO_FILTERS).toString()).toBe('orderby=date');
  });
});

describe('filters as Store API parameters', () => {
  it('asks for attribute terms, prices, stock and ratings', () => {
    const filters = parseFilters(params('filter_color=blue,green&filter_size=m&min_price=1000&max_price=1999&filter_stock_status=instock&rating_filter=4'));
    expect(filterQuery(filters)).toEqual({
      min_price: '1000',
      max_price: '1999',
      stock_status: 'instock',
      rating: '4',
      'attributes[0][attribute]': 'pa_color',
      'attributes[0][slug]': 'blue,green',
      'attributes[0][operator]': 'in',
      'attributes[1][attribute]': 'pa_size',
      'attributes[1][slug]': 'm',
      'attributes[1][operator]': 'in',
      attribute_relation: 'and',
    });
  });

  it("narrows a category page to chosen subcategories, and keeps a brand page's brand", () => {
    expect(filterQuery(NO_FILTERS, { category: 'clothing' })).toEqual({ category: 'clothing' });
    expect(filterQuery({ ...NO_FILTERS, categories: ['hoodies'] }, { category: 'clothing' })).toEqual({ category: 'hoodies' });
    expect(filterQuery({ ...NO_FILTERS, brands: ['other'] }, { brand: 'lumen' })).toEqual({ brand: 'lumen' });
    expect(filterQuery({ ...NO_FILTERS, brands: ['a', 'b'], onSale: true })).toEqual({ brand: 'a,b', on_sale: true });
  });

  it('turns a price band into the prices it holds', () => {
    expect(bandFilter({ min_price: '2000', max_price: '3000' })).toEqual({ minPrice: '2000', maxPrice: '2999' });
  });
});

describe('prices typed by shoppers', () => {
  it('become minor units without floating point', () => {
    expect(toMinorUnits('12.5', 2)).toBe('1250');
    expect(toMinorUnits('12,05', 2)).toBe('1205');
    expect(toMinorUnits('20', 2)).toBe('2000');
    expect(toMinorUnits('.99', 2)).toBe('99');
    expect(toMinorUnits('0.1', 0)).toBeNull();
    expect(toMinorUnits('12.345', 2)).toBeNull();
    expect(toMinorUnits('ten', 2)).toBeNull();
    expect(toMinorUnits('', 2)).toBeNull();
  });

  it('show minor units as plain numbers', () => {
    expect(fromMinorUnits('2000', 2)).toBe('20');
    expect(fromMinorUnits('1250', 2)).toBe('12.50');
    expect(fromMinorUnits('5', 2)).toBe('0.05');
    expect(fromMinorUnits('7', 0)).toBe('7');
  });
});

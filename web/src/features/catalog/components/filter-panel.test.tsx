import { render, screen, within } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import type { Taxonomy } from '@/types/store-api';
import type { AttributeWithTerms } from '../api/get-attributes';
import type { CollectionData } from '../api/get-collection-data';
import { NO_FILTERS, type CatalogFilters } from '../lib/filters';
import { FilterChips, filterChips } from './filter-chips';
import { FilterPanel } from './filter-panel';
import { fireEvent, leave, setValue } from '@/test/events';

const format = {
  currency_minor_unit: 2,
  currency_decimal_separator: '.',
  currency_thousand_separator: ',',
  currency_prefix: '$',
  currency_suffix: '',
};

const term = (id: number, slug: string, name: string): Taxonomy => ({
  id,
  slug,
  name,
  description: '',
  parent: 0,
  count: 1,
  image: null,
  link: '',
});

const categories = [term(10, 'clothing', 'Clothing'), term(11, 'decor', 'Decor')];
const brands = [term(20, 'lumen', 'Lumen')];
const attributes: AttributeWithTerms[] = [
  {
    id: 1,
    name: 'Color',
    taxonomy: 'pa_color',
    count: 3,
    terms: [
      { id: 31, slug: 'blue', name: 'Blue', count: 4 },
      { id: 32, slug: 'green', name: 'Green', count: 2 },
      { id: 33, slug: 'red', name: 'Red', count: 1 },
    ],
  },
];

const data: CollectionData = {
  price_range: { ...format, currency_code: 'USD', currency_symbol: '$', min_price: '1000', max_price: '5500' },
  attribute_counts: [
    { term: 31, count: 4 },
    { term: 32, count: 2 },
  ],
  rating_counts: [{ rating: 4, count: 3 }],
  stock_status_counts: [
    { status: 'instock', count: 7 },
    { status: 'outofstock', count: 1 },
  ],
  taxonomy_counts: [
    { term: 10, count: 5 },
    { term: 20, count: 2 },
  ],
  price_bands: [
    { min_price: '0', max_price: '2000', count: 3 },
    { min_price: '2000', max_price: '4000', count: 0 },
    { min_price: '4000', max_price: '6000', count: 5 },
  ],
};

function renderPanel(filters: CatalogFilters = NO_FILTERS) {
  const onChange = vi.fn();
  render(
    <FilterPanel filters={filters} onChange={onChange} data={data} categories={categories} brands={brands} attributes={attributes} format={format} />,
  );
  return onChange;
}

describe('the filter panel', () => {
  it('groups its choices in fieldsets with counts, leaving out those that would list nothing', () => {
    renderPanel();
    const colour = screen.getByRole('group', { name: 'Color' });
    expect(within(colour).getByRole('checkbox', { name: 'Blue 4 products' })).toBeTruthy();
    expect(within(colour).getByRole('checkbox', { name: 'Green 2 products' })).toBeTruthy();
    expect(within(colour).queryByRole('checkbox', { name: /Red/ })).toBeNull();

    const categoryGroup = screen.getByRole('group', { name: 'Categories' });
    expect(within(categoryGroup).getAllByRole('checkbox').length).toBe(1);
    expect(within(categoryGroup).getByRole('checkbox', { name: 'Clothing 5 products' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Lumen 2 products' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'In stock 7 products' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Out of stock 1 product' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: /On backorder/ })).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Rated 4 out of 5 3 products' })).toBeTruthy();

    const bands = within(screen.getByRole('group', { name: 'Price' })).getByRole('list', { name: 'Price bands' });
    expect(within(bands).getAllByRole('checkbox').length).toBe(2);
    expect(within(bands).getByRole('checkbox', { name: '$40.00 – $60.00 5 products' })).toBeTruthy();
    expect((screen.getByLabelText('Min price') as HTMLInputElement).placeholder).toBe('10');
    expect((screen.getByLabelText('Max price') as HTMLInputElement).placeholder).toBe('55');
  });

  it('adds and removes a term', () => {
    const onChange = renderPanel();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Green 2 products' }));
    expect(onChange).toHaveBeenLastCalledWith({ ...NO_FILTERS, attributes: { pa_color: ['green'] } });

    const chosen = { ...NO_FILTERS, attributes: { pa_color: ['blue', 'red'] } };
    const again = vi.fn();
    document.body.innerHTML = '';
    render(<FilterPanel filters={chosen} onChange={again} data={data} categories={categories} brands={brands} attributes={attributes} format={format} />);
    // A chosen term stays on offer even with no products, so it can be unticked.
    const red = screen.getByRole('checkbox', { name: 'Red 0 products' }) as HTMLInputElement;
    expect(red.checked).toBe(true);
    fireEvent.click(red);
    expect(again).toHaveBeenLastCalledWith({ ...NO_FILTERS, attributes: { pa_color: ['blue'] } });
  });

  it('chooses a price band, and applies typed prices in minor units', () => {
    const onChange = renderPanel();
    fireEvent.click(screen.getByRole('checkbox', { name: '$0.00 – $20.00 3 products' }));
    expect(onChange).toHaveBeenLastCalledWith({ ...NO_FILTERS, minPrice: '0', maxPrice: '1999' });

    const min = screen.getByLabelText('Min price');
    setValue(min, '12.5');
    expect(onChange).toHaveBeenCalledTimes(1);
    leave(min);
    expect(onChange).toHaveBeenLastCalledWith({ ...NO_FILTERS, minPrice: '1250', maxPrice: null });
  });

  it('marks the chosen band and unticks it back to no price filter', () => {
    const onChange = renderPanel({ ...NO_FILTERS, minPrice: '4000', maxPrice: '5999' });
    const band = screen.getByRole('checkbox', { name: '$40.00 – $60.00 5 products' }) as HTMLInputElement;
    expect(band.checked).toBe(true);
    expect((screen.getByLabelText('Min price') as HTMLInputElement).value).toBe('40');
    fireEvent.click(band);
    expect(onChange).toHaveBeenLastCalledWith(NO_FILTERS);
  });
});

describe('the active filter chips', () => {
  const filters: CatalogFilters = {
    ...NO_FILTERS,
    minPrice: '2000',
    maxPrice: '3999',
    attributes: { pa_color: ['blue'] },
    stockStatus: ['instock'],
    onSale: true,
  };

  it('name each filter in force and remove one at a time', () => {
    const onChange = vi.fn();
    render(<FilterChips chips={filterChips(filters, { categories, brands, attributes, format })} onChange={onChange} />);
    const chips = within(screen.getByRole('group', { name: 'Active filters' })).getAllByRole('button', { name: /^Remove filter/ });
    expect(chips.map((chip) => chip.getAttribute('aria-label'))).toEqual([
      'Remove filter: Price: $20.00 – $39.99',
      'Remove filter: Color: Blue',
      'Remove filter: In stock',
      'Remove filter: On sale',
    ]);
    fireEvent.click(chips[1]!);
    expect(onChange).toHaveBeenLastCalledWith({ ...filters, attributes: { pa_color: [] } });
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(onChange).toHaveBeenLastCalledWith(NO_FILTERS);
  });

  it('show nothing without filters', () => {
    const { container } = render(<FilterChips chips={filterChips(NO_FILTERS, { categories, brands, attributes, format })} onChange={vi.fn()} />);
    expect(container.innerHTML).toBe('');
  });
});

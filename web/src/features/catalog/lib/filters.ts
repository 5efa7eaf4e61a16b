// A listing's filter choices live in its address, so a filtered page can be shared
// and the back button undoes a choice:
//   ?min_price=2000&max_price=4999     prices in minor units, as the Store API takes them
//   ?filter_product_cat=hoodies,caps   category slugs (on a category page: its subcategories)
//   ?filter_product_brand=lumen        brand slugs
//   ?filter_color=blue,green           a global attribute's term slugs (pa_color → filter_color)
//   ?filter_stock_status=instock       stock statuses
//   ?rating_filter=4,5                 average ratings in whole stars
// "On sale" stays ?on_sale=true, which the listing already reads.
// This module turns them into the Store API's parameters and back.
import type { QueryParams } from '@/lib/api-client';

export const STOCK_STATUSES = ['instock', 'onbackorder', 'outofstock'] as const;
export type StockStatusChoice = (typeof STOCK_STATUSES)[number];

export const STOCK_STATUS_LABELS: Record<StockStatusChoice, string> = {
  instock: 'In stock',
  onbackorder: 'On backorder',
  outofstock: 'Out of stock',
};

export interface CatalogFilters {
  /** Minor units, as digits. */
  minPrice: string | null;
  maxPrice: string | null;
  categories: string[];
  brands: string[];
  /** Term slugs by attribute taxonomy (`pa_color`). */
  attributes: Record<string, string[]>;
  stockStatus: StockStatusChoice[];
  ratings: number[];
  onSale: boolean;
}

export const NO_FILTERS: CatalogFilters = {
  minPrice: null,
  maxPrice: null,
  categories: [],
  brands: [],
  attributes: {},
  stockStatus: [],
  ratings: [],
  onSale: false,
};

/** Every address key the filters own ("page" is reset by any change, not owned). */
const ATTRIBUTE_PREFIX = 'filter_';
const FIXED_KEYS = ['min_price', 'max_price', 'filter_product_cat', 'filter_product_brand', 'filter_stock_status', 'rating_filter', 'on_sale'];

const DIGITS = /^\d+$/;
const SLUG = /^[\p{L}\p{N}_-]+$/u;

function list(value: string | null): string[] {
  const seen = new Set<string>();
  for (const part of (value ?? '').split(',')) {
    const item = part.trim();
    if (item && SLUG.test(item)) seen.add(item);
  }
  return [...seen];
}

/** `pa_color` ↔ `filter_color`. */
export function attributeParam(taxonomy: string): string {
  return `${ATTRIBUTE_PREFIX}${taxonomy.replace(/^pa_/, '')}`;
}

function isAttributeParam(key: string): boolean {
  return key.startsWith(ATTRIBUTE_PREFIX) && !FIXED_KEYS.includes(key);
}

export function parseFilters(params: URLSearchParams): CatalogFilters {
  const price = (key: string) => {
    const value = (params.get(key) ?? '').trim();
    return DIGITS.test(value) ? value.replace(/^0+(?=\d)/, '') : null;
  };
  const attributes: Record<string, string[]> = {};
  for (const key of new Set(params.keys())) {
    if (!isAttributeParam(key)) continue;
    const slugs = list(params.get(key));
    const name = key.slice(ATTRIBUTE_PREFIX.length);
    if (slugs.length > 0 && SLUG.test(name)) attributes[`pa_${name}`] = slugs;
  }
  return {
    minPrice: price('min_price'),
    maxPrice: price('max_price'),
    categories: list(params.get('filter_product_cat')),
    brands: list(params.get('filter_product_brand')),
    attributes,
    stockStatus: list(params.get('filter_stock_status')).filter((s): s is StockStatusChoice =>
      (STOCK_STATUSES as readonly string[]).includes(s),
    ),
    ratings: list(params.get('rating_filter'))
      .map(Number)
      .filter((n) => Number.isInteger(n) && n >= 1 && n <= 5),
    onSale: params.get('on_sale') === 'true',
  };
}

/**
 * The address with `filters` in place of the current ones. Other keys (orderby, s)
 * stay; the page goes back to the first.
 */
export function withFilters(params: URLSearchParams, filters: CatalogFilters): URLSearchParams {
  const next = new URLSearchParams();
  for (const [key, value] of params) {
    if (key === 'page' || FIXED_KEYS.includes(key) || isAttributeParam(key)) continue;
    next.append(key, value);
  }
  if (filters.minPrice !== null) next.set('min_price', filters.minPrice);
  if (filters.maxPrice !== null) next.set('max_price', filters.maxPrice);
  if (filters.categories.length) next.set('filter_product_cat', filters.categories.join(','));
  if (filters.brands.length) next.set('filter_product_brand', filters.brands.join(','));
  for (const [taxonomy, slugs] of Object.entries(filters.attributes)) {
    if (slugs.length) next.set(attributeParam(taxonomy), slugs.join(','));
  }
  if (filters.stockStatus.length) next.set('filter_stock_status', filters.stockStatus.join(','));
  if (filters.ratings.length) next.set('rating_filter', filters.ratings.join(','));
  if (filters.onSale) next.set('on_sale', 'true');
  return next;
}

export function hasFilters(filters: CatalogFilters): boolean {
  return (
    filters.minPrice !== null ||
    filters.maxPrice !== null ||
    filters.categories.length > 0 ||
    filters.brands.length > 0 ||
    Object.values(filters.attributes).some((slugs) => slugs.length > 0) ||
    filters.stockStatus.length > 0 ||
    filters.ratings.length > 0 ||
    filters.onSale
  );
}

/** Adds `value` to a choice list, or takes it out. */
export function toggled<T>(values: T[], value: T): T[] {
  return values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
}

/** What a listing's page fixes whatever the filters say. */
export interface FilterScope {
  category?: string;
  brand?: string;
}

/**
 * The Store API parameters for the filters, shared by `/products` and
 * `/products/collection-data`. Chosen subcategories narrow a category page; the
 * page's own category applies otherwise.
 */
export function filterQuery(filters: CatalogFilters, scope: FilterScope = {}): QueryParams {
  const query: QueryParams = {};
  const categories = filters.categories.length ? filters.categories.join(',') : scope.category;
  if (categories) query.category = categories;
  const brands = scope.brand ?? (filters.brands.length ? filters.brands.join(',') : undefined);
  if (brands) query.brand = brands;
  if (filters.minPrice !== null) query.min_price = filters.minPrice;
  if (filters.maxPrice !== null) query.max_price = filters.maxPrice;
  if (filters.stockStatus.length) query.stock_status = filters.stockStatus.join(',');
  if (filters.ratings.length) query.rating = filters.ratings.join(',');
  if (filters.onSale) query.on_sale = true;
  const chosen = Object.entries(filters.attributes).filter(([, slugs]) => slugs.length > 0);
  chosen.forEach(([taxonomy, slugs], index) => {
    query[`attributes[${index}][attribute]`] = taxonomy;
    query[`attributes[${index}][slug]`] = slugs.join(',');
    query[`attributes[${index}][operator]`] = 'in';
  });
  if (chosen.length > 1) query.attribute_relation = 'and';
  return query;
}

/** "12.50" (or "12,5") in a currency with `minorUnit` decimals as minor units ("1250"); null if not a price. */
export function toMinorUnits(text: string, minorUnit: number): string | null {
  const match = /^\s*(\d*)(?:[.,](\d*))?\s*$/.exec(text);
  if (!match || (!match[1] && !match[2])) return null;
  const fraction = (match[2] ?? '').padEnd(minorUnit, '0');
  if (fraction.length > minorUnit && /[1-9]/.test(fraction.slice(minorUnit))) return null;
  const digits = `${match[1] || '0'}${fraction.slice(0, minorUnit)}`.replace(/^0+(?=\d)/, '');
  return digits;
}

/** Minor units ("1250") as a plain number for an input ("12.50"; "12" when whole). */
export function fromMinorUnits(amount: string, minorUnit: number): string {
  if (!DIGITS.test(amount)) return '';
  const digits = amount.replace(/^0+(?=\d)/, '').padStart(minorUnit + 1, '0');
  if (minorUnit === 0) return digits;
  const whole = digits.slice(0, -minorUnit);
  const fraction = digits.slice(-minorUnit);
  return /^0+$/.test(fraction) ? whole : `${whole}.${fraction}`;
}

/** A price band from collection data ([from, to) in minor units) as min/max filters. */
export function bandFilter(band: { min_price: string; max_price: string }): { minPrice: string; maxPrice: string } {
  const to = BigInt(band.max_price);
  return { minPrice: band.min_price, maxPrice: (to > 0n ? to - 1n : 0n).toString() };
}

// A catalogue listing's state lives in its address: ?orderby=, ?page=, ?s=,
// ?on_sale=true and the filters (lib/filters). This turns that into Store API parameters.
import type { ProductListParams } from '../api/get-products';
import { filterQuery, NO_FILTERS, type CatalogFilters } from './filters';
import { orderbyToApi, parseOrderby, type CatalogOrderby } from './orderby';

export const PRODUCTS_PER_PAGE = 12;

export interface Listing {
  orderby: CatalogOrderby;
  page: number;
  search: string;
  onSale: boolean;
}

export interface ListingScope {
  category?: string;
  brand?: string;
}

export function parseListing(params: URLSearchParams): Listing {
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  return {
    orderby: parseOrderby(params.get('orderby')),
    page: Number.isFinite(page) && page > 0 ? page : 1,
    search: (params.get('s') ?? '').trim(),
    onSale: params.get('on_sale') === 'true',
  };
}

export function productListParams(
  listing: Listing,
  scope: ListingScope = {},
  filters: CatalogFilters = NO_FILTERS,
): ProductListParams {
  return {
    ...orderbyToApi(listing.orderby),
    page: listing.page,
    per_page: PRODUCTS_PER_PAGE,
    ...filterQuery(filters, scope),
    ...(listing.search ? { search: listing.search } : {}),
    ...(listing.onSale ? { on_sale: true } : {}),
  };
}

/** Page numbers to show, with null for a gap: 1 … 4 5 [6] 7 8 … 20. */
export function pageNumbers(current: number, total: number, around = 2): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let page = 1; page <= total; page += 1) {
    const near = Math.abs(page - current) <= around;
    if (page === 1 || page === total || near) pages.push(page);
    else if (pages[pages.length - 1] !== null) pages.push(null);
  }
  return pages;
}

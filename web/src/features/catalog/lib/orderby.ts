// Catalogue sorting: the values the shop uses in its addresses (?orderby=price-desc,
// as WooCommerce does) and the Store API's orderby/order pair for each.

export const ORDERBY_OPTIONS = [
  { value: 'menu_order', label: 'Default sorting', api: { orderby: 'menu_order', order: 'asc' } },
  { value: 'popularity', label: 'Sort by popularity', api: { orderby: 'popularity', order: 'desc' } },
  { value: 'rating', label: 'Sort by average rating', api: { orderby: 'rating', order: 'desc' } },
  { value: 'date', label: 'Sort by latest', api: { orderby: 'date', order: 'desc' } },
  { value: 'price', label: 'Sort by price: low to high', api: { orderby: 'price', order: 'asc' } },
  { value: 'price-desc', label: 'Sort by price: high to low', api: { orderby: 'price', order: 'desc' } },
] as const;

export type CatalogOrderby = (typeof ORDERBY_OPTIONS)[number]['value'];
export type ApiOrdering = (typeof ORDERBY_OPTIONS)[number]['api'];

export const DEFAULT_ORDERBY: CatalogOrderby = 'menu_order';

/** The ordering named in an address; anything unknown falls back to the default, as the shop does. */
export function parseOrderby(value: string | null | undefined): CatalogOrderby {
  return ORDERBY_OPTIONS.find((option) => option.value === value)?.value ?? DEFAULT_ORDERBY;
}

export function orderbyToApi(orderby: CatalogOrderby): ApiOrdering {
  return (ORDERBY_OPTIONS.find((option) => option.value === orderby) ?? ORDERBY_OPTIONS[0]).api;
}

export function orderbyFromApi(orderby: string, order: string): CatalogOrderby {
  const normalisedOrder = order.toLowerCase();
  return (
    ORDERBY_OPTIONS.find((option) => option.api.orderby === orderby && option.api.order === normalisedOrder)?.value ??
    DEFAULT_ORDERBY
  );
}

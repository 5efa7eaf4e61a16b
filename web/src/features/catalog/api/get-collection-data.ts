// GET /products/collection-data: counts for the filter panel over the products the
// current filters match (each count leaves out its own filter), the price range and
// the shop's round price bands.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { storeApiGet, type QueryParams } from '@/lib/api-client';
import type { CurrencyFields } from '@/types/store-api';

export interface TermCount {
  term: number;
  count: number;
}

export interface PriceBand {
  /** Minor units; a band holds prices from min_price up to, not including, max_price. */
  min_price: string;
  max_price: string;
  count: number;
}

export interface CollectionData {
  price_range: (CurrencyFields & { min_price: string | null; max_price: string | null }) | null;
  attribute_counts: TermCount[] | null;
  rating_counts: { rating: number; count: number }[] | null;
  stock_status_counts: { status: string; count: number }[] | null;
  taxonomy_counts: TermCount[] | null;
  price_bands?: PriceBand[];
}

/** The counts the panel asks for, beside the filters' own parameters. */
export function collectionDataParams(filters: QueryParams, attributeTaxonomies: string[]): QueryParams {
  const params: QueryParams = {
    ...filters,
    calculate_price_range: true,
    calculate_price_bands: true,
    calculate_stock_status_counts: true,
    calculate_rating_counts: true,
    calculate_taxonomy_counts: 'product_cat,product_brand',
  };
  attributeTaxonomies.forEach((taxonomy, index) => {
    params[`calculate_attribute_counts[${index}][taxonomy]`] = taxonomy;
    params[`calculate_attribute_counts[${index}][query_type]`] = 'or';
  });
  return params;
}

export async function getCollectionData(params: QueryParams): Promise<CollectionData> {
  const { data } = await storeApiGet<CollectionData>('/products/collection-data', params);
  return data;
}

export function getCollectionDataQueryOptions(params: QueryParams) {
  return queryOptions({
    queryKey: ['catalog', 'collection-data', params],
    queryFn: () => getCollectionData(params),
  });
}

/** While new counts load, the previous ones stay on screen. */
export function useCollectionData(params: QueryParams) {
  return useQuery({ ...getCollectionDataQueryOptions(params), placeholderData: keepPreviousData });
}

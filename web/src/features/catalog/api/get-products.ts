// GET /products: a page of the catalogue with the totals from X-WP-Total and X-WP-TotalPages.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { storeApiGet, type QueryParams } from '@/lib/api-client';
import type { Product } from '@/types/store-api';

/** The listing's own parameters, plus any filter the Store API takes (see lib/filters). */
export interface ProductListParams extends QueryParams {
  page?: number;
  per_page?: number;
  orderby?: string;
  order?: string;
  /** Category id or slug. */
  category?: string;
  /** Brand id or slug. */
  brand?: string;
  search?: string;
  on_sale?: boolean;
  min_price?: string;
  max_price?: string;
}

export interface ProductList {
  products: Product[];
  total: number;
  totalPages: number;
}

export async function getProducts(params: ProductListParams): Promise<ProductList> {
  const { data, headers } = await storeApiGet<Product[]>('/products', { ...params });
  const total = Number.parseInt(headers.get('X-WP-Total') ?? '', 10);
  const totalPages = Number.parseInt(headers.get('X-WP-TotalPages') ?? '', 10);
  return {
    products: data,
    total: Number.isFinite(total) ? total : data.length,
    totalPages: Number.isFinite(totalPages) ? totalPages : 1,
  };
}

export function getProductsQueryOptions(params: ProductListParams) {
  return queryOptions({
    queryKey: ['catalog', 'products', params],
    queryFn: () => getProducts(params),
  });
}

/** While the next page or ordering loads, the previous list stays on screen. */
export function useProducts(params: ProductListParams, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getProductsQueryOptions(params), placeholderData: keepPreviousData, enabled });
}

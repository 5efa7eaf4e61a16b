// GET /products/brands: every brand, for brand pages, the footer and the home page strip.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { storeApiGet } from '@/lib/api-client';
import type { Taxonomy } from '@/types/store-api';

export async function getBrands(): Promise<Taxonomy[]> {
  const { data } = await storeApiGet<Taxonomy[]>('/products/brands');
  return data;
}

export function getBrandsQueryOptions() {
  return queryOptions({
    queryKey: ['catalog', 'brands'],
    queryFn: getBrands,
    staleTime: 5 * 60_000,
  });
}

export function useBrands() {
  return useQuery(getBrandsQueryOptions());
}

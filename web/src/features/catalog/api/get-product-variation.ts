// GET /products/{id} for a variation: its own price, stock, image and quantity limits.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { storeApiGet } from '@/lib/api-client';
import type { Product } from '@/types/store-api';

export async function getProductVariation(id: number): Promise<Product> {
  const { data } = await storeApiGet<Product>(`/products/${id}`);
  return data;
}

export function getProductVariationQueryOptions(id: number) {
  return queryOptions({
    queryKey: ['catalog', 'variation', id],
    queryFn: () => getProductVariation(id),
  });
}

export function useProductVariation(id: number | null) {
  return useQuery({ ...getProductVariationQueryOptions(id ?? 0), enabled: id !== null });
}

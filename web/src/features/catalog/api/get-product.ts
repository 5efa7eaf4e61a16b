// GET /products?slug=: one product by its slug (the API answers with a list of at most one).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { storeApiGet } from '@/lib/api-client';
import type { Product } from '@/types/store-api';

/** The product with this slug, or null when the shop has none. */
export async function getProduct(slug: string): Promise<Product | null> {
  const { data } = await storeApiGet<Product[]>('/products', { slug });
  return data.find((product) => product.slug === slug) ?? data[0] ?? null;
}

export function getProductQueryOptions(slug: string) {
  return queryOptions({
    queryKey: ['catalog', 'product', slug],
    queryFn: () => getProduct(slug),
  });
}

export function useProduct(slug: string) {
  return useQuery(getProductQueryOptions(slug));
}

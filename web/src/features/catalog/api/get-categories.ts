// GET /products/categories: every category, for navigation, titles and the home page.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { storeApiGet } from '@/lib/api-client';
import type { Taxonomy } from '@/types/store-api';

export async function getCategories(): Promise<Taxonomy[]> {
  const { data } = await storeApiGet<Taxonomy[]>('/products/categories');
  return data;
}

export function getCategoriesQueryOptions() {
  return queryOptions({
    queryKey: ['catalog', 'categories'],
    queryFn: getCategories,
    staleTime: 5 * 60_000,
  });
}

export function useCategories() {
  return useQuery(getCategoriesQueryOptions());
}

/** Top-level categories that have products, as navigation shows them. */
export function topLevelCategories(categories: Taxonomy[] | undefined): Taxonomy[] {
  return (categories ?? []).filter((category) => category.parent === 0 && category.count > 0 && category.slug !== 'uncategorized');
}

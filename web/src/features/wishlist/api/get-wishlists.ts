// GET /wp-json/ferroshop/v1/wishlists: the shopper's lists (none for a new shopper).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { restGet } from '@/lib/api-client';

export interface WishlistSummary {
  ID: number;
  title: string;
  status: string;
  share_key: string;
  url: string;
  count: number;
  is_default: boolean;
}

export async function getWishlists(): Promise<WishlistSummary[]> {
  const { data } = await restGet<WishlistSummary[]>('/wishlists');
  return Array.isArray(data) ? data : [];
}

export const wishlistsQueryKey = ['wishlist', 'lists'] as const;

export function getWishlistsQueryOptions() {
  return queryOptions({ queryKey: wishlistsQueryKey, queryFn: getWishlists, staleTime: 30_000 });
}

export function useWishlists(enabled = true) {
  return useQuery({ ...getWishlistsQueryOptions(), enabled });
}

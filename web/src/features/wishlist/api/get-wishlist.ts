// GET /wp-json/ferroshop/v1/wishlists/{key}?page=N&per_page=M: one list with a page of
// its items, newest first. `default` is the shopper's default list (ID 0 and no items
// while they have none); an unknown key answers 404 `wishlist_not_found`.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { restGet } from '@/lib/api-client';
import type { ProductPrices } from '@/types/store-api';

export interface WishlistItem {
  item_id: number;
  product_id: number;
  variation_id: number;
  name: string;
  permalink: string;
  image: { src: string; srcset: string; sizes: string; alt: string } | null;
  prices: ProductPrices;
  price_html: string;
  stock: { is_in_stock: boolean; text: string };
  variation: { attribute: string; value: string }[];
  type: string;
  is_purchasable: boolean;
  /** Site time, ISO 8601 without a zone. */
  added_at: string;
}

export interface Wishlist {
  ID: number;
  title: string;
  status: string;
  share_key: string;
  url: string;
  is_owner: boolean;
  items: WishlistItem[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
}

export const WISHLIST_PER_PAGE = 10;

export async function getWishlist(key: string, page: number): Promise<Wishlist> {
  const { data } = await restGet<Wishlist>(`/wishlists/${encodeURIComponent(key)}`, { page, per_page: WISHLIST_PER_PAGE });
  return data;
}

export function getWishlistQueryOptions(key: string, page: number) {
  return queryOptions({ queryKey: ['wishlist', 'list', key, page], queryFn: () => getWishlist(key, page), staleTime: 30_000 });
}

export function useWishlist(key: string, page: number) {
  return useQuery(getWishlistQueryOptions(key, page));
}

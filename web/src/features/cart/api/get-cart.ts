// GET /cart: the Store API cart the mini-cart and the cart page render. A cart
// cached earlier in the visit is shown at once while it is current (see
// lib/cart-cache.ts); each fresh one is cached again.
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { storeApiGet } from '@/lib/api-client';
import type { Cart } from '@/types/store-api';
import { CART_CACHE_MAX_AGE_MS, cartHashOf, readCachedCart, rememberCart } from '../lib/cart-cache';

export const cartQueryKey = ['cart'] as const;

export async function getCart(): Promise<Cart> {
  const { data } = await storeApiGet<Cart>('/cart');
  rememberCart(data, cartHashOf(data), { refreshed: true });
  return data;
}

export function getCartQueryOptions() {
  return queryOptions({
    queryKey: cartQueryKey,
    queryFn: getCart,
    // The cart changes only through this page's writes (which update it), other
    // tabs (which invalidate it) or its 24-hour expiry (a timer invalidates it).
    staleTime: CART_CACHE_MAX_AGE_MS,
    initialData: () => readCachedCart()?.cart,
    initialDataUpdatedAt: () => readCachedCart()?.createdAt,
  });
}

/** A cart fetched this recently counts as the server's current one. */
const JUST_FETCHED_MS = 5_000;

/** Whether a cart fetched at `updatedAt` is the server's current one (the page arrived with it). */
export function isJustFetched(updatedAt: number, now = Date.now()): boolean {
  return updatedAt > 0 && now - updatedAt < JUST_FETCHED_MS;
}

/**
 * `fresh` refetches on mount even when a cached cart exists (the cart page), unless
 * the cart was fetched moments ago (the page arrived with it).
 */
export function useCart({ fresh = false }: { fresh?: boolean } = {}) {
  return useQuery({
    ...getCartQueryOptions(),
    ...(fresh
      ? { refetchOnMount: (query: { state: { dataUpdatedAt: number } }) => (isJustFetched(query.state.dataUpdatedAt) ? false : 'always') }
      : {}),
  });
}

/** Puts a cart returned by a Store API write in place, and caches it. */
export function setCart(queryClient: QueryClient, cart: Cart): void {
  queryClient.setQueryData(cartQueryKey, cart);
  rememberCart(cart, cartHashOf(cart));
}

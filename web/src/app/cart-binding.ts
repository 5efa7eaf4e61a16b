// The cart as the checkout sees it, built from the cart feature: the same query the
// header's mini-cart reads, fetched afresh when the checkout opens (unless the page
// arrived with it, fetched for it on the server).
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { cartQueryKey, isJustFetched, setCart, useCart } from '@/features/cart/api/get-cart';
import type { CartBinding } from '@/types/cart-binding';

export function useCartBinding(): CartBinding {
  const queryClient = useQueryClient();
  const { data, isPending, isFetchedAfterMount, dataUpdatedAt, error } = useCart({ fresh: true });
  const [arrivedFresh] = useState(() => data !== undefined && isJustFetched(dataUpdatedAt));
  const isFresh = isFetchedAfterMount || arrivedFresh;
  return useMemo(
    () => ({
      cart: data,
      isPending,
      isFresh,
      error,
      setCart: (cart) => setCart(queryClient, cart),
      refresh: () => queryClient.invalidateQueries({ queryKey: cartQueryKey }),
    }),
    [data, isPending, isFresh, error, queryClient],
  );
}

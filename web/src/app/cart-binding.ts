// The cart as the checkout sees it, built from the cart feature: the same query the
// header's mini-cart reads, fetched afresh when the checkout opens.
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { cartQueryKey, setCart, useCart } from '@/features/cart/api/get-cart';
import type { CartBinding } from '@/types/cart-binding';

export function useCartBinding(): CartBinding {
  const queryClient = useQueryClient();
  const { data, isPending, isFetchedAfterMount, error } = useCart({ fresh: true });
  return useMemo(
    () => ({
      cart: data,
      isPending,
      isFresh: isFetchedAfterMount,
      error,
      setCart: (cart) => setCart(queryClient, cart),
      refresh: () => queryClient.invalidateQueries({ queryKey: cartQueryKey }),
    }),
    [data, isPending, isFetchedAfterMount, error, queryClient],
  );
}

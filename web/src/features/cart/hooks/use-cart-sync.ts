// Keeps this tab's cart current without polling: refetches when another tab records
// a new cart hash, when the cached cart reaches its 24-hour age, when the page
// comes back from the browser's back-forward cache, and when another part of the
// shop changed the cart on the server (the original's `wc_fragment_refresh` on the
// body: the wishlist's add to cart).
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { cartQueryKey, useCart } from '../api/get-cart';
import { cartCacheExpiresIn, watchCartHash } from '../lib/cart-cache';

export function useCartSync() {
  const queryClient = useQueryClient();
  const { dataUpdatedAt } = useCart();

  useEffect(() => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: cartQueryKey });
    const stopWatching = watchCartHash(refresh);
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) refresh();
    };
    window.addEventListener('pageshow', onPageShow);
    document.body.addEventListener('wc_fragment_refresh', refresh);
    return () => {
      stopWatching();
      window.removeEventListener('pageshow', onPageShow);
      document.body.removeEventListener('wc_fragment_refresh', refresh);
    };
  }, [queryClient]);

  useEffect(() => {
    const expiresIn = cartCacheExpiresIn();
    if (expiresIn === null) return;
    const timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: cartQueryKey }), expiresIn);
    return () => clearTimeout(timer);
  }, [queryClient, dataUpdatedAt]);
}

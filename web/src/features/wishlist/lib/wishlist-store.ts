// The shopper's wishlist data in this tab, as the hearts and the header's counter
// read it. Null on the server and until the browser is idle after the page has been
// taken over: then the cache's code loads (wishlist-cache.ts) and puts the data in
// place, so page load does no work for it and the first render matches the server's.
import { useSyncExternalStore } from 'react';
import { isHydrating } from '@/lib/hydration';
import type { WishlistsData } from './wishlists-data';

let current: WishlistsData | null = null;
let started = false;
const listeners = new Set<() => void>();

/** Every heart and the counter follow. */
function showWishlistsData(next: WishlistsData | null) {
  current = next;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!started) {
    started = true;
    // The hearts of parts still being taken over must render as the server drew them.
    const start = (): void => {
      if (isHydrating()) setTimeout(start, 200);
      else void import('./wishlist-cache').then((cache) => cache.startWishlistCache(showWishlistsData));
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(start, { timeout: 3000 });
    else setTimeout(start, 300);
  }
  return () => void listeners.delete(listener);
}

/** The data, or null until it is known. */
export function useWishlistsData(): WishlistsData | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}

/**
 * Whether the product is listed: for a card, in any form (itself or any variation);
 * for a product page, the variation shown (0 when none is chosen).
 */
export function isListed(data: WishlistsData | null, productId: number, variationId?: number): boolean {
  return Object.values(data?.products[productId] ?? {}).some((list) =>
    variationId === undefined ? list.in.length > 0 : list.in.includes(variationId),
  );
}

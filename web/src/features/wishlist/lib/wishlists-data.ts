// The shopper's wishlist data as the server sends it (`wishlists_data`): which
// products, and which of their variations, their default list holds, and how many
// rows it has. Cached in the browser under the settings' `hash_key`.

/** One list holding a product: `in` lists the variation ids (0 for the product itself). */
export interface ListedIn {
  ID: number;
  title: string;
  status: string;
  share_key: string;
  in: number[];
}

export interface WishlistsData {
  /** Product id → list id → where it is listed. */
  products: Record<string, Record<string, ListedIn>>;
  counter: number;
  stats?: Record<string, Record<string, number>>;
  stats_count?: number;
}

/** The cached data, or null when the text is not the server's shape. */
export function parseWishlistsData(text: string | null | undefined): WishlistsData | null {
  if (!text) return null;
  try {
    return asWishlistsData(JSON.parse(text));
  } catch {
    return null;
  }
}

export function asWishlistsData(value: unknown): WishlistsData | null {
  if (!value || typeof value !== 'object') return null;
  const data = value as Partial<WishlistsData>;
  if (!('products' in data) && !('counter' in data)) return null;
  // An empty set may come as [] from older answers; it means no products.
  const products = data.products && typeof data.products === 'object' && !Array.isArray(data.products) ? data.products : {};
  return { ...data, products, counter: Number(data.counter) || 0 };
}

/** What to do with the cache at page load (the original's cookie re-checks). */
export type CacheVerdict = 'use' | 'refetch' | 'fetch-when-used';

export function cacheVerdict(cached: WishlistsData | null, counterCookie: string | null): CacheVerdict {
  if (cached) {
    // Guests never get the counter cookie: their cache stands until the server says otherwise.
    if (counterCookie === null || Number(counterCookie) === cached.counter) return 'use';
    return 'refetch';
  }
  return counterCookie === null ? 'fetch-when-used' : 'refetch';
}

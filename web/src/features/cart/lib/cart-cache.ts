// Cart hash bookkeeping, as the original shop's cart fragments do it: the cart last
// seen is kept in sessionStorage with its hash and creation time, reused on the next
// page load while it is younger than 24 hours and its hash still equals the server's
// woocommerce_cart_hash cookie. The hash is mirrored to localStorage so other tabs
// notice a change (the `storage` event) and refetch their cart.

import { readCookie } from '@/lib/cookies';
import type { Cart } from '@/types/store-api';

export const CART_HASH_KEY = 'wc_cart_hash';
export const CART_CREATED_KEY = 'wc_cart_created';
export const CART_DATA_KEY = 'ferroshop_cart';
export const CART_HASH_COOKIE = 'woocommerce_cart_hash';
/** Cached cart data older than this is discarded and fetched again. */
export const CART_CACHE_MAX_AGE_MS = 86_400_000;

export interface CartCacheEnv {
  session: Storage;
  local: Storage;
  now: () => number;
  /** The server's current cart hash; "" when the cookie is absent (an empty cart). */
  cookieHash: () => string;
}

function browserEnv(): CartCacheEnv | null {
  try {
    return {
      session: window.sessionStorage,
      local: window.localStorage,
      now: Date.now,
      cookieHash: () => readCookie(CART_HASH_COOKIE) ?? '',
    };
  } catch {
    // Storage can be switched off; the cart then simply is never cached.
    return null;
  }
}

function forget(env: CartCacheEnv) {
  env.session.removeItem(CART_DATA_KEY);
  env.session.removeItem(CART_CREATED_KEY);
}

/** The cart cached by an earlier page of this visit, if it is still current. */
export function readCachedCart(env: CartCacheEnv | null = browserEnv()): { cart: Cart; createdAt: number } | null {
  if (!env) return null;
  try {
    const hash = env.session.getItem(CART_HASH_KEY) ?? '';
    const created = Number(env.session.getItem(CART_CREATED_KEY) ?? NaN);
    const data = env.session.getItem(CART_DATA_KEY);
    const hasCreated = Number.isFinite(created) && created > 0;

    const usable =
      data !== null &&
      !(hash && !hasCreated) &&
      !(hasCreated && created + CART_CACHE_MAX_AGE_MS < env.now()) &&
      hash === env.cookieHash();
    if (!usable) {
      forget(env);
      return null;
    }
    return { cart: JSON.parse(data) as Cart, createdAt: hasCreated ? created : env.now() };
  } catch {
    forget(env);
    return null;
  }
}

/**
 * Records a new cart hash. The creation time restarts on a full refresh and on the
 * first hash of a session; a write (add, remove) keeps it, as in the original shop.
 */
export function rememberCartHash(
  hash: string,
  { refreshed = false }: { refreshed?: boolean } = {},
  env: CartCacheEnv | null = browserEnv(),
): void {
  if (!env) return;
  try {
    const previous = env.session.getItem(CART_HASH_KEY);
    if ((refreshed && hash) || !previous) env.session.setItem(CART_CREATED_KEY, String(env.now()));
    env.session.setItem(CART_HASH_KEY, hash);
    env.local.setItem(CART_HASH_KEY, hash);
  } catch {
    // A full storage quota only costs the cache.
  }
}

export function rememberCart(
  cart: Cart,
  hash: string,
  options: { refreshed?: boolean } = {},
  env: CartCacheEnv | null = browserEnv(),
): void {
  if (!env) return;
  rememberCartHash(hash, options, env);
  try {
    env.session.setItem(CART_DATA_KEY, JSON.stringify(cart));
  } catch {
    // As above.
  }
}

/** Milliseconds until the cached cart expires; null when nothing is cached. */
export function cartCacheExpiresIn(env: CartCacheEnv | null = browserEnv()): number | null {
  if (!env) return null;
  const created = Number(env.session.getItem(CART_CREATED_KEY) ?? NaN);
  if (!Number.isFinite(created) || created <= 0) return null;
  return Math.max(0, created + CART_CACHE_MAX_AGE_MS - env.now());
}

/**
 * The hash for a cart read from the Store API: the server's cookie when it can be
 * read, else a fingerprint of the contents, so another tab still notices a change.
 */
export function cartHashOf(cart: Cart, env: CartCacheEnv | null = browserEnv()): string {
  const cookie = env?.cookieHash() ?? '';
  if (cookie || cart.items_count === 0) return cookie;
  const contents = cart.items.map((item) => `${item.key}:${item.quantity}`).join('|') + `|${cart.totals.total_price}`;
  let hash = 5381;
  for (let index = 0; index < contents.length; index += 1) hash = ((hash * 33) ^ contents.charCodeAt(index)) >>> 0;
  return `local-${hash.toString(16)}`;
}

/** Calls `onChange` when another tab records a cart hash this tab has not seen. */
export function watchCartHash(onChange: () => void, env: CartCacheEnv | null = browserEnv()): () => void {
  if (!env || typeof window === 'undefined') return () => {};
  const listener = (event: StorageEvent) => {
    if (event.key !== CART_HASH_KEY) return;
    if (env.local.getItem(CART_HASH_KEY) !== env.session.getItem(CART_HASH_KEY)) onChange();
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}

import { describe, expect, it, vi } from 'vitest';
import type { Cart } from '@/types/store-api';
import cartWithItems from '@/test/fixtures/store-cart-get-with-items.json';
import emptyCart from '@/test/fixtures/store-cart-get-new.json';
import {
  CART_CACHE_MAX_AGE_MS,
  CART_CREATED_KEY,
  CART_HASH_KEY,
  cartCacheExpiresIn,
  cartHashOf,
  readCachedCart,
  rememberCart,
  rememberCartHash,
  watchCartHash,
  type CartCacheEnv,
} from './cart-cache';

const cart = cartWithItems as unknown as Cart;
const DAY = 24 * 60 * 60 * 1000;

function env(overrides: Partial<CartCacheEnv> = {}): CartCacheEnv & { clock: { now: number }; cookie: { hash: string } } {
  const clock = { now: 1_700_000_000_000 };
  const cookie = { hash: '' };
  return {
    session: sessionStorage,
    local: localStorage,
    now: () => clock.now,
    cookieHash: () => cookie.hash,
    clock,
    cookie,
    ...overrides,
  };
}

describe('the cached cart', () => {
  it('lasts 24 hours', () => {
    expect(CART_CACHE_MAX_AGE_MS).toBe(DAY);
  });

  it('is reused on the next page while its hash matches the cookie and it is younger than 24 hours', () => {
    const e = env();
    e.cookie.hash = 'abc';
    rememberCart(cart, 'abc', { refreshed: true }, e);
    e.clock.now += DAY - 1;
    expect(readCachedCart(e)?.cart.items_count).toBe(cart.items_count);
  });

  it('is discarded once it is older than 24 hours', () => {
    const e = env();
    e.cookie.hash = 'abc';
    rememberCart(cart, 'abc', { refreshed: true }, e);
    e.clock.now += DAY + 1;
    expect(readCachedCart(e)).toBeNull();
    expect(sessionStorage.getItem(CART_CREATED_KEY)).toBeNull();
  });

  it('is discarded when the server cookie names another cart', () => {
    const e = env();
    e.cookie.hash = 'abc';
    rememberCart(cart, 'abc', { refreshed: true }, e);
    e.cookie.hash = 'changed-on-the-server';
    expect(readCachedCart(e)).toBeNull();
  });

  it('is discarded when a hash was stored without a creation time', () => {
    const e = env();
    e.cookie.hash = 'abc';
    rememberCart(cart, 'abc', { refreshed: true }, e);
    sessionStorage.removeItem(CART_CREATED_KEY);
    expect(readCachedCart(e)).toBeNull();
  });

  it('reports how long it has left, so the page can refetch when it expires', () => {
    const e = env();
    expect(cartCacheExpiresIn(e)).toBeNull();
    rememberCart(cart, 'abc', { refreshed: true }, e);
    e.clock.now += 1000;
    expect(cartCacheExpiresIn(e)).toBe(DAY - 1000);
  });

  it('keeps its creation time across writes but restarts it on a refresh', () => {
    const e = env();
    rememberCartHash('first', {}, e);
    const created = sessionStorage.getItem(CART_CREATED_KEY);
    e.clock.now += 5000;
    rememberCartHash('second', {}, e);
    expect(sessionStorage.getItem(CART_CREATED_KEY)).toBe(created);
    rememberCartHash('third', { refreshed: true }, e);
    expect(sessionStorage.getItem(CART_CREATED_KEY)).toBe(String(e.clock.now));
  });

  it('mirrors the hash into localStorage for the other tabs', () => {
    rememberCartHash('abc', {}, env());
    expect(localStorage.getItem(CART_HASH_KEY)).toBe('abc');
    expect(sessionStorage.getItem(CART_HASH_KEY)).toBe('abc');
  });
});

describe('the cart hash of a Store API cart', () => {
  it("is the server's cookie when it can be read", () => {
    const e = env();
    e.cookie.hash = 'from-cookie';
    expect(cartHashOf(cart, e)).toBe('from-cookie');
  });

  it('is empty for an empty cart without a cookie', () => {
    expect(cartHashOf(emptyCart as unknown as Cart, env())).toBe('');
  });

  it('falls back to a fingerprint that changes with the contents', () => {
    const e = env();
    const more = { ...cart, items: cart.items.map((item) => ({ ...item, quantity: item.quantity + 1 })) };
    expect(cartHashOf(cart, e)).toMatch(/^local-/);
    expect(cartHashOf(more, e)).not.toBe(cartHashOf(cart, e));
  });
});

describe('keeping tabs in sync', () => {
  function otherTabWrites(hash: string) {
    localStorage.setItem(CART_HASH_KEY, hash);
    window.dispatchEvent(new StorageEvent('storage', { key: CART_HASH_KEY, newValue: hash }));
  }

  it('invalidates the cart when another tab records a new hash', () => {
    const onChange = vi.fn();
    rememberCartHash('mine', {}, env());
    const stop = watchCartHash(onChange, env());
    otherTabWrites('theirs');
    expect(onChange).toHaveBeenCalledTimes(1);
    stop();
  });

  it('does nothing when the other tab records the hash this tab already has', () => {
    const onChange = vi.fn();
    rememberCartHash('same', {}, env());
    const stop = watchCartHash(onChange, env());
    otherTabWrites('same');
    expect(onChange).not.toHaveBeenCalled();
    stop();
  });

  it('ignores changes to other storage keys and stops listening when asked', () => {
    const onChange = vi.fn();
    rememberCartHash('mine', {}, env());
    const stop = watchCartHash(onChange, env());
    localStorage.setItem(CART_HASH_KEY, 'theirs');
    window.dispatchEvent(new StorageEvent('storage', { key: 'something_else' }));
    expect(onChange).not.toHaveBeenCalled();
    stop();
    otherTabWrites('theirs-again');
    expect(onChange).not.toHaveBeenCalled();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyRenderSettings, DEFAULT_SETTINGS, settings } from '@/config/settings';

const KEY = 'ti_wishlist_data_test';
const cached = { products: { '12': { '7': { ID: 7, title: 'Default wishlist', status: 'share', share_key: 'abc', in: [0] } } }, counter: 1 };
const fresh = { products: {}, counter: 0 };

function clearCookies() {
  for (const name of ['tinvwl_update_data', 'tinvwl_wishlists_data_counter']) document.cookie = `${name}=; Max-Age=0; Path=/`;
}

let stop = () => undefined as void;

/** A fresh copy of the cache module, started with a recording setter; `get_data` answered with `fresh`. */
async function start() {
  vi.resetModules();
  const fetchMock = vi.fn(async () => new Response(JSON.stringify({ status: true, wishlists_data: fresh }), { headers: { 'Content-Type': 'application/json' } }));
  vi.stubGlobal('fetch', fetchMock);
  // The fresh module reads fresh settings.
  const freshSettings = await import('@/config/settings');
  freshSettings.applyRenderSettings({ ...DEFAULT_SETTINGS, wishlist: { ...DEFAULT_SETTINGS.wishlist, hash_key: KEY } });
  const shown: unknown[] = [];
  const cache = await import('./wishlist-cache');
  stop = cache.startWishlistCache((data) => shown.push(data));
  return { shown, fetchMock };
}

describe('the wishlist data’s cache', () => {
  const before = { ...settings };
  beforeEach(() => applyRenderSettings({ ...DEFAULT_SETTINGS, wishlist: { ...DEFAULT_SETTINGS.wishlist, hash_key: KEY } }));
  afterEach(() => {
    applyRenderSettings(before);
    clearCookies();
    stop();
  });

  it('uses the cache when no counter cookie says otherwise, in both storages', async () => {
    localStorage.setItem(KEY, JSON.stringify(cached));
    const { shown, fetchMock } = await start();
    expect(shown).toEqual([cached]);
    expect(sessionStorage.getItem(KEY)).toBe(JSON.stringify(cached));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('drops the cache when the server sets tinvwl_update_data, and deletes the cookie', async () => {
    localStorage.setItem(KEY, JSON.stringify(cached));
    document.cookie = 'tinvwl_update_data=1; Path=/';
    const { shown, fetchMock } = await start();
    expect(shown).toEqual([]);
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(document.cookie).not.toContain('tinvwl_update_data');
    // Nothing cached, no counter: asked once the shopper uses the page.
    expect(fetchMock).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('scroll'));
    await vi.waitFor(() => expect(shown).toEqual([fresh]));
    expect(localStorage.getItem(KEY)).toBe(JSON.stringify(fresh));
  });

  it('fetches again with get_data when the counter cookie differs from the cached counter', async () => {
    localStorage.setItem(KEY, JSON.stringify(cached));
    document.cookie = 'tinvwl_wishlists_data_counter=0; Path=/';
    const { shown, fetchMock } = await start();
    await vi.waitFor(() => expect(shown).toEqual([cached, fresh]));
    expect(String((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body)).toContain('tinvwl-action=get_data');
  });

  it('follows another tab’s change', async () => {
    const { shown } = await start();
    window.dispatchEvent(new StorageEvent('storage', { key: KEY, newValue: JSON.stringify(cached) }));
    expect(shown).toEqual([cached]);
    expect(sessionStorage.getItem(KEY)).toBe(JSON.stringify(cached));
    // The same value again (this tab's own write) changes nothing.
    window.dispatchEvent(new StorageEvent('storage', { key: KEY, newValue: JSON.stringify(cached) }));
    expect(shown).toHaveLength(1);
  });
});

// The wishlist data's cache, loaded once the browser is idle after the page has been
// taken over: kept in localStorage and sessionStorage under the settings'
// `hash_key`, re-checked against the server's cookies (`tinvwl_update_data` drops
// the cache; a `tinvwl_wishlists_data_counter` other than the cached counter fetches
// it again with `get_data`), and followed across tabs through `storage` events.
import { settings } from '@/config/settings';
import { getWishlistsData } from '../api/get-wishlists-data';
import { cacheVerdict, parseWishlistsData, type WishlistsData } from './wishlists-data';

const key = () => settings.wishlist.hash_key;

/**
 * One of the wishlist's cookies (set by the server, not HttpOnly). Read here rather
 * than with lib/cookies: sharing that module with this chunk would split it out of the
 * cart's, one more file on every product page.
 */
export const wishlistCookie = (name: string): string | null => new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(document.cookie)?.[1] ?? null;
const USE_EVENTS = ['pointerdown', 'keydown', 'scroll'];
// The store's setter, handed over when the store starts the cache (the store's small
// chunk then needs nothing of this one's).
let showWishlistsData: (data: WishlistsData | null) => void = () => undefined;
let started = false;

/** Puts the server's latest data in place: both caches, every heart, the counter. */
export function storeWishlistsData(next: WishlistsData) {
  const text = JSON.stringify(next);
  try {
    localStorage.setItem(key(), text);
    sessionStorage.setItem(key(), text);
  } catch {
    // A full or blocked storage: this tab still shows the data.
  }
  showWishlistsData(next);
}

/** Asks the server (`get_data`) and stores the answer. */
export async function refreshWishlistsData(): Promise<void> {
  const data = await getWishlistsData();
  if (data) storeWishlistsData(data);
}

function load() {
  try {
    if (wishlistCookie('tinvwl_update_data') !== null) {
      document.cookie = 'tinvwl_update_data=; Max-Age=0; Path=/';
      localStorage.removeItem(key());
    }
    const cached = parseWishlistsData(localStorage.getItem(key()));
    const verdict = cacheVerdict(cached, wishlistCookie('tinvwl_wishlists_data_counter'));
    if (cached) {
      sessionStorage.setItem(key(), JSON.stringify(cached));
      showWishlistsData(cached);
    }
    if (verdict === 'refetch') void refreshWishlistsData();
    // As the original: a shopper with nothing cached is asked about once they use the page.
    if (verdict === 'fetch-when-used') {
      const once = () => {
        USE_EVENTS.forEach((name) => removeEventListener(name, once, true));
        void refreshWishlistsData();
      };
      USE_EVENTS.forEach((name) => addEventListener(name, once, { capture: true, passive: true }));
    }
  } catch {
    // No storage (a locked-down browser): the hearts stay unmarked.
  }
}

function onStorage(event: StorageEvent) {
  if (event.key !== key()) return;
  try {
    if (event.newValue === sessionStorage.getItem(key())) return;
    if (event.newValue) sessionStorage.setItem(key(), event.newValue);
    else sessionStorage.removeItem(key());
  } catch {
    // Still followed in this tab.
  }
  showWishlistsData(parseWishlistsData(event.newValue));
}

/** Starts once; the function returned stops following other tabs. */
export function startWishlistCache(show: (data: WishlistsData | null) => void): () => void {
  const stop = () => removeEventListener('storage', onStorage);
  if (started) return stop;
  started = true;
  showWishlistsData = show;
  load();
  addEventListener('storage', onStorage);
  return stop;
}

// The products a shopper has looked at lately, newest first, kept in the browser
// (the original keeps them in its `woocommerce_recently_viewed` cookie). A product
// page notes its product; the list never grows past MAX_RECENT.

const STORAGE_KEY = 'ferroshop_recently_viewed';
export const MAX_RECENT = 15;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage refused (a privacy setting): the list is simply not kept.
    return null;
  }
}

export function recentlyViewed(): number[] {
  const text = storage()?.getItem(STORAGE_KEY);
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id) && id > 0).slice(0, MAX_RECENT) : [];
  } catch {
    return [];
  }
}

/** Puts `id` first, once; gives the new list. */
export function noteViewed(id: number): number[] {
  const list = [id, ...recentlyViewed().filter((other) => other !== id)].slice(0, MAX_RECENT);
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(list));
  } catch {
    // Full or refused: keep going without it.
  }
  return list;
}

// The wishlist table's endpoint (`POST /?wc-ajax=tinvwl`), form-encoded, with the
// session's `wp_rest` nonce in `tinvwl-security` and the `X-WP-Nonce` header. Every
// table call (remove, add to cart, get_data, the lists' own) goes through here, and
// every outcome is an answer: a failure is the original's "Something went wrong".
import { settings } from '@/config/settings';
import { postForm } from '@/lib/api-client';
import type { WishlistsData } from '../lib/wishlists-data';

export interface WishlistAjaxAnswer {
  status: boolean;
  /** The dialog's HTML; its text is what the shopper reads. */
  msg?: string;
  action?: string;
  icon?: string;
  redirect?: string;
  wishlists_data?: WishlistsData;
}

export const SOMETHING_WENT_WRONG = 'Something went wrong';

export async function wishlistAjax(action: string, fields: [string, string | number][] = []): Promise<WishlistAjaxAnswer> {
  const { wc_ajax_url: url, nonce } = settings.wishlist;
  const body = new URLSearchParams({ 'tinvwl-action': action, 'tinvwl-security': nonce });
  for (const [name, value] of fields) body.append(name, String(value));
  try {
    const answer = await postForm<WishlistAjaxAnswer | null>(url, body, { headers: { 'X-WP-Nonce': nonce } });
    if (answer && typeof answer === 'object') return answer;
  } catch {
    // Offline, or not the server's JSON: said as the original says it.
  }
  return { status: false, msg: SOMETHING_WENT_WRONG };
}

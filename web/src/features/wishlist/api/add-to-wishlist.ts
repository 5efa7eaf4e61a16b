// POST <this page's address, without its query>: adds a product to a wishlist (or,
// in the simple flow, removes it), as multipart form data with the original's fields
// and the session's `wp_rest` nonce in `X-WP-Nonce`. The answer's keys drive the
// client (see lib/add-answer.ts); a failure becomes the original's "Something went wrong".
import { settings } from '@/config/settings';
import type { WishlistsData } from '../lib/wishlists-data';
import { SOMETHING_WENT_WRONG } from './wishlist-ajax';

export interface AddToWishlistRequest {
  productId: number;
  productType: string;
  variationId?: number;
  action: 'addto' | 'remove';
  /** A list of the shopper's own; empty for their default list (or a new one by name). */
  wishlistId?: number | '';
  /** A new list's name. */
  wishlistName?: string;
}

export interface AddToWishlistAnswer {
  status: boolean;
  msg?: string;
  icon?: string;
  action?: string;
  wishlist_url?: string;
  redirect?: string;
  force_redirect?: string;
  make_remove?: boolean;
  removed?: boolean;
  wishlist?: { ID: number; title: string; status: string; share_key: string; is_owner: boolean };
  wishlists_data?: WishlistsData;
  code?: string;
}

export function addToWishlistPayload(request: AddToWishlistRequest, page: string): FormData {
  const body = new FormData();
  if (request.variationId) body.set('form[variation_id]', String(request.variationId));
  body.set('tinv_wishlist_id', request.wishlistId ? String(request.wishlistId) : '');
  body.set('tinv_wishlist_name', request.wishlistName ?? '');
  body.set('product_type', request.productType);
  body.set('product_id', String(request.productId));
  body.set('product_variation', String(request.variationId ?? 0));
  body.set('product_action', request.action);
  body.set('redirect', page);
  return body;
}

/** The page's own address with no query: where the server takes the add. */
export const addAddress = (href: string): string => href.replace(/[?#].*$/s, '');

export async function addToWishlist(request: AddToWishlistRequest): Promise<AddToWishlistAnswer> {
  const href = window.location.href;
  try {
    const response = await fetch(addAddress(href), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'X-WP-Nonce': settings.wishlist.nonce },
      body: addToWishlistPayload(request, href),
    });
    const answer = (await response.json()) as AddToWishlistAnswer | null;
    if (answer && typeof answer === 'object' && 'status' in answer) return answer;
  } catch {
    // Said below.
  }
  return { status: false, msg: SOMETHING_WENT_WRONG, icon: 'icon_big_times' };
}

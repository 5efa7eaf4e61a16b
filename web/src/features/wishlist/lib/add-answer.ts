// What the client does with an add's answer, key by key, as the original's `onAction`
// map does: `wishlists_data` is stored (the hearts and the counter follow), a
// `wishlist` page open in another tab is told to refresh, `force_redirect` leaves at
// once, `redirect` leaves after 4000 ms, and `msg` becomes the dialog's lines.
import { settings } from '@/config/settings';
import type { AddToWishlistAnswer } from '../api/add-to-wishlist';
import { dialogLines, dialogViewUrl } from './dialog-text';
import { asWishlistsData, type WishlistsData } from './wishlists-data';

export const REDIRECT_DELAY_MS = 4000;

export interface AnswerPlan {
  data: WishlistsData | null;
  /** For `localStorage[hash_key + '_refresh']`. */
  refreshKey: string | null;
  forceRedirect: string | null;
  redirect: string | null;
  dialog: { lines: string[]; success: boolean; viewUrl: string | null } | null;
}

export function planAnswer(answer: AddToWishlistAnswer): AnswerPlan {
  const lines = dialogLines(answer.msg);
  return {
    data: asWishlistsData(answer.wishlists_data),
    refreshKey: (answer.status || answer.removed) && answer.wishlist?.share_key ? answer.wishlist.share_key : null,
    forceRedirect: answer.force_redirect || null,
    redirect: answer.redirect || null,
    dialog:
      lines.length > 0 && settings.wishlist.show_notice
        ? { lines, success: Boolean(answer.status || answer.removed), viewUrl: dialogViewUrl(answer.msg) ?? answer.wishlist_url ?? null }
        : null,
  };
}

// A heart's click, loaded with the first one: the list chooser when the shopper has
// several lists, the add call, and its answer played out (lib/add-answer.ts).
import { settings } from '@/config/settings';
import type { WishlistButtonRequest } from '@/types/wishlist-button';
import { addToWishlist, type AddToWishlistRequest } from '../api/add-to-wishlist';
import { getWishlists } from '../api/get-wishlists';
import { planAnswer, REDIRECT_DELAY_MS } from '../lib/add-answer';
import { storeWishlistsData } from '../lib/wishlist-cache';
import { AddedDialog } from './added-dialog';
import { ChooseWishlist, type WishlistChoice } from './choose-wishlist';
import { showInHost } from './dialog-host';

type Click = WishlistButtonRequest & { action: AddToWishlistRequest['action'] };

function choose(click: Click, returnFocus: HTMLElement | null): Promise<WishlistChoice | null> {
  return getWishlists()
    .catch(() => [])
    .then((lists) => {
      if (click.action === 'remove' || lists.length < 2) return { wishlistId: '', wishlistName: '' } as WishlistChoice;
      return new Promise<WishlistChoice | null>((resolve) => {
        const done = (choice: WishlistChoice | null) => {
          showInHost(null);
          if (!choice) returnFocus?.focus();
          resolve(choice);
        };
        showInHost(<ChooseWishlist lists={lists} productName={click.productName} onChoose={done} onClose={() => done(null)} />);
      });
    });
}

export async function addFromButton(click: Click, returnFocus: HTMLElement | null): Promise<void> {
  const choice = await choose(click, returnFocus);
  if (!choice) return;
  const answer = await addToWishlist({
    productId: click.productId,
    productType: click.productType,
    variationId: click.variationId,
    action: click.action,
    ...choice,
  });
  const plan = planAnswer(answer);
  if (plan.data) storeWishlistsData(plan.data);
  if (plan.refreshKey) {
    try {
      localStorage.setItem(`${settings.wishlist.hash_key}_refresh`, plan.refreshKey);
    } catch {
      // Only the other tabs' refresh is lost.
    }
  }
  if (plan.forceRedirect) {
    window.location.assign(plan.forceRedirect);
    return;
  }
  const redirect = plan.redirect;
  const timer = redirect ? setTimeout(() => window.location.assign(redirect), REDIRECT_DELAY_MS) : null;
  if (!plan.dialog) return;
  const close = () => {
    // Closing the dialog stays on this page.
    if (timer !== null) clearTimeout(timer);
    showInHost(null);
    if (returnFocus?.isConnected) returnFocus.focus();
  };
  showInHost(<AddedDialog {...plan.dialog} closeAfterMs={timer === null ? settings.wishlist.popup_timer : null} onClose={close} />);
}

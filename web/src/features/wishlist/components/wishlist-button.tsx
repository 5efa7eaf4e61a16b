// The heart on product cards and product pages: a toggle button pressed while the
// product (on its page: the chosen variation) is in the shopper's default list.
// Kept small, since every product page carries it: what a click does (the call, the
// list chooser, the dialog) loads on the first click.
import { useRef } from 'react';
import { settings } from '@/config/settings';
import type { WishlistButtonRequest } from '@/types/wishlist-button';
import { isListed, useWishlistsData } from '../lib/wishlist-store';
import styles from './wishlist-button.module.css';

export const ADD_TEXT = 'Add to Wishlist';
export const REMOVE_TEXT = 'Remove from Wishlist';
export const ALREADY_TEXT = 'Already In Wishlist';

export function wishlistButtonText(listed: boolean, simpleFlow: boolean): string {
  if (!listed) return ADD_TEXT;
  return simpleFlow ? REMOVE_TEXT : ALREADY_TEXT;
}

export function WishlistButton(request: WishlistButtonRequest) {
  const { productId, variationId, needsChoice, placement } = request;
  const { simple_flow: simpleFlow, allow_parent_variable: parentAllowed, i18n_make_a_selection_text: chooseFirst } = settings.wishlist;
  const data = useWishlistsData();
  const button = useRef<HTMLButtonElement>(null);
  // A second click while the first is under way does nothing.
  const busy = useRef(false);
  const onPage = placement === 'product';
  const listed = isListed(data, productId, onPage ? (variationId ?? 0) : undefined);
  const blocked = Boolean(needsChoice) && !parentAllowed;
  const text = wishlistButtonText(listed, simpleFlow);

  const onClick = async () => {
    if (blocked) {
      window.alert(chooseFirst);
      return;
    }
    if (busy.current) return;
    busy.current = true;
    try {
      const { addFromButton } = await import('./add-from-button');
      await addFromButton({ ...request, action: listed && simpleFlow ? 'remove' : 'addto' }, button.current);
    } finally {
      busy.current = false;
    }
  };

  return (
    <button
      ref={button}
      type="button"
      className={`${styles.heart} ${onPage ? styles.page : styles.card}`}
      aria-pressed={listed}
      aria-label={onPage ? undefined : text}
      aria-disabled={blocked || undefined}
      title={text}
      onClick={() => void onClick()}
    >
      <svg width={onPage ? 20 : 18} height={onPage ? 20 : 18} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M12 20.5l-8-8a5 5 0 0 1 8-6 5 5 0 0 1 8 6z" />
      </svg>
      {onPage && <span>{text}</span>}
    </button>
  );
}

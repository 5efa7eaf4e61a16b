// The wishlist page (`/wishlist/`, `/wishlist/<share key>/`): for its owner, the list's
// table with its row and bulk actions, their other lists (open, create, rename,
// delete) and the share buttons; for anyone else with the link, the list read-only,
// with add to cart. Every table call answers with messages (shown as the server
// words them), the shopper's wishlist data (stored, so hearts and counter follow) and
// perhaps a `redirect` (followed); calls that touched the cart refresh it.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ButtonLink } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { settings } from '@/config/settings';
import { ApiError } from '@/lib/api-client';
import { useWishlist } from '../api/get-wishlist';
import { isCartAction, runWishlistAction, type TableActionRequest } from '../api/run-wishlist-action';
import type { WishlistAjaxAnswer } from '../api/wishlist-ajax';
import { dialogLines } from '../lib/dialog-text';
import { storeWishlistsData } from '../lib/wishlist-cache';
import { asWishlistsData } from '../lib/wishlists-data';
import { WishlistLists } from './wishlist-lists';
import styles from './wishlist-page.module.css';
import { WishlistShare } from './wishlist-share';
import { WishlistTable } from './wishlist-table';

export const NOT_FOUND_TEXT = 'Wishlist is not found!';
export const EMPTY_OWNER_TEXT = 'Your Wishlist is currently empty.';
export const EMPTY_TEXT = 'Wishlist is currently empty.';

export interface PageMessage {
  tone: 'success' | 'error';
  lines: string[];
}

/** What the page does with a table call's answer, besides showing its message. */
export function useAnswerHandler(onCartChanged: () => void) {
  const queryClient = useQueryClient();
  return (answer: WishlistAjaxAnswer, touchedCart: boolean): PageMessage | null => {
    const data = asWishlistsData(answer.wishlists_data);
    if (data) storeWishlistsData(data);
    void queryClient.invalidateQueries({ queryKey: ['wishlist'] });
    if (touchedCart) onCartChanged();
    if (answer.redirect) window.location.assign(answer.redirect);
    const lines = dialogLines(answer.msg);
    return lines.length > 0 ? { tone: answer.status ? 'success' : 'error', lines } : null;
  };
}

export function WishlistPage({
  listKey,
  page,
  pathname,
  onCartChanged,
}: {
  /** The share key in the address, or undefined for the shopper's default list. */
  listKey: string | undefined;
  page: number;
  pathname: string;
  onCartChanged: () => void;
}) {
  const { data: list, error, isPending } = useWishlist(listKey ?? 'default', page);
  const [message, setMessage] = useState<PageMessage | null>(null);
  const handle = useAnswerHandler(onCartChanged);
  const queryClient = useQueryClient();

  // A heart clicked in another tab for this list: show it afresh (the original's `_refresh` signal).
  useEffect(() => {
    const signal = `${settings.wishlist.hash_key}_refresh`;
    const onStorage = (event: StorageEvent) => {
      if (event.key === signal && event.newValue && event.newValue === list?.share_key) {
        void queryClient.invalidateQueries({ queryKey: ['wishlist'] });
        localStorage.setItem(signal, '');
      }
    };
    addEventListener('storage', onStorage);
    return () => removeEventListener('storage', onStorage);
  }, [list?.share_key, queryClient]);

  useEffect(() => setMessage(null), [listKey]);

  if (isPending) {
    return (
      <div className={styles.loading} role="status" aria-busy="true">
        <Spinner size={24} />
        <span>Loading wishlist…</span>
      </div>
    );
  }
  if (error || !list) {
    const notFound = error instanceof ApiError && error.status === 404;
    return (
      <div className={styles.state}>
        <p className={styles.stateText}>{notFound ? NOT_FOUND_TEXT : (error?.message ?? NOT_FOUND_TEXT)}</p>
        <ButtonLink to={paths.shop()}>Return To Shop</ButtonLink>
      </div>
    );
  }

  const run = async (request: Omit<TableActionRequest, 'shareKey' | 'page' | 'perPage'>) => {
    const answer = await runWishlistAction({ ...request, shareKey: list.share_key, page: list.page || page, perPage: list.per_page });
    setMessage(handle(answer, isCartAction(request.action)));
  };

  return (
    <div className={styles.layout}>
      <div className={styles.main}>
        <header className={styles.header}>
          {list.is_owner ? <h2 className={styles.listTitle}>{list.title || 'Wishlist'}</h2> : <p className={styles.readOnly}>A wishlist shared with you.</p>}
        </header>
        {message && (
          <Notice tone={message.tone} onDismiss={() => setMessage(null)}>
            {message.lines.map((line, index) => (
              <p key={index}>{line}</p>
            ))}
          </Notice>
        )}
        {list.items.length === 0 && page <= 1 ? (
          <div className={styles.state}>
            <p className={styles.stateText}>{list.is_owner ? EMPTY_OWNER_TEXT : EMPTY_TEXT}</p>
            <ButtonLink to={paths.shop()}>Return To Shop</ButtonLink>
          </div>
        ) : (
          <WishlistTable list={list} page={page} pathname={pathname} onAction={run} />
        )}
        {list.ID !== 0 && list.status !== 'private' && list.items.length > 0 && <WishlistShare list={list} />}
      </div>
      {list.is_owner && <WishlistLists current={list} onAnswer={(answer) => setMessage(handle(answer, false))} />}
    </div>
  );
}

// The owner's lists beside the table: each one to open (with its item count), a new
// one by name, and the list shown renamed or deleted (never the default list).
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { settings } from '@/config/settings';
import { createWishlist } from '../api/create-wishlist';
import { deleteWishlist } from '../api/delete-wishlist';
import type { Wishlist } from '../api/get-wishlist';
import { useWishlists } from '../api/get-wishlists';
import { renameWishlist } from '../api/rename-wishlist';
import type { WishlistAjaxAnswer } from '../api/wishlist-ajax';
import styles from './wishlist-page.module.css';

const listAddress = (shareKey: string) => `${settings.wishlist.page_url}${shareKey}/`;

/** Opens another list of the shopper's (after a create), or their default list (after a delete). */
function useOpenList() {
  const navigate = useNavigate();
  return (shareKey: string | null) => navigate(shareKey ? listAddress(shareKey) : settings.wishlist.page_url);
}

export function WishlistLists({ current, onAnswer }: { current: Wishlist; onAnswer: (answer: WishlistAjaxAnswer) => void }) {
  const { data: lists = [] } = useWishlists();
  const openList = useOpenList();
  const [newName, setNewName] = useState('');
  const [rename, setRename] = useState(current.title);
  const [busy, setBusy] = useState(false);
  const currentSummary = lists.find((list) => list.share_key === current.share_key);
  const isDefault = current.ID === 0 || (currentSummary?.is_default ?? true);

  const send = async (call: () => Promise<WishlistAjaxAnswer>, after?: (answer: WishlistAjaxAnswer) => void) => {
    if (busy) return;
    setBusy(true);
    try {
      const answer = await call();
      onAnswer(answer);
      if (answer.status) after?.(answer);
    } finally {
      setBusy(false);
    }
  };

  const create = (event: FormEvent) => {
    event.preventDefault();
    const name = newName.trim();
    if (!name) return;
    void send(
      () => createWishlist(name),
      (answer) => {
        setNewName('');
        const created = (answer as { wishlist?: { share_key?: string } }).wishlist?.share_key;
        if (created) openList(created);
      },
    );
  };

  const submitRename = (event: FormEvent) => {
    event.preventDefault();
    const name = rename.trim();
    if (!name || name === current.title) return;
    void send(() => renameWishlist(current.share_key, name));
  };

  const remove = () => {
    if (!window.confirm(`Delete the wishlist “${current.title}” and everything in it?`)) return;
    void send(
      () => deleteWishlist(current.share_key),
      () => openList(null),
    );
  };

  return (
    <aside className={styles.aside} aria-labelledby="wishlist-lists-title">
      <h2 id="wishlist-lists-title" className={styles.asideTitle}>
        Your wishlists
      </h2>
      {lists.length > 0 && (
        <ul className={styles.lists}>
          {lists.map((list) => (
            <li key={list.ID}>
              <Link
                to={listAddress(list.share_key)}
                className={styles.listLink}
                aria-current={list.share_key === current.share_key ? 'page' : undefined}
              >
                <span>{list.title}</span>
                <span className={styles.listCount}>
                  {list.count}
                  <span className="visually-hidden">{list.count === 1 ? ' item' : ' items'}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}

      <form className={styles.listForm} onSubmit={create}>
        <label htmlFor="wishlist-new-name">Create a new wishlist</label>
        <div className={styles.inline}>
          <input id="wishlist-new-name" className={styles.input} value={newName} maxLength={100} placeholder="Name" onInput={(event) => setNewName(event.currentTarget.value)} />
          <Button type="submit" variant="secondary" disabled={busy}>
            {settings.wishlist.text_create}
          </Button>
        </div>
      </form>

      {current.ID !== 0 && (
        <form className={styles.listForm} onSubmit={submitRename}>
          <label htmlFor="wishlist-rename">Rename this wishlist</label>
          <div className={styles.inline}>
            <input id="wishlist-rename" className={styles.input} value={rename} maxLength={100} onInput={(event) => setRename(event.currentTarget.value)} />
            <Button type="submit" variant="secondary" disabled={busy}>
              Rename
            </Button>
          </div>
        </form>
      )}

      {!isDefault && (
        <Button variant="ghost" className={styles.deleteList} onClick={remove} disabled={busy}>
          Delete this wishlist
        </Button>
      )}
    </aside>
  );
}

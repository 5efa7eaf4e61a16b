// "Add to wishlist…" for a shopper with several lists: one of theirs, or a new one by
// name ("Create New"). Sent with neither, the empty field is marked for a second (as
// the original's `empty-name-wishlist`) and says why; nothing is sent.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { settings } from '@/config/settings';
import type { WishlistSummary } from '../api/get-wishlists';
import styles from './wishlist-dialogs.module.css';
import { WishlistModal } from './wishlist-modal';

export const EMPTY_CHOICE_MS = 1000;
export const EMPTY_CHOICE_MESSAGE = 'Choose a wishlist, or give the new one a name.';

export interface WishlistChoice {
  wishlistId: number | '';
  wishlistName: string;
}

export function ChooseWishlist({
  lists,
  productName,
  onChoose,
  onClose,
}: {
  lists: WishlistSummary[];
  productName: string;
  onChoose: (choice: WishlistChoice) => void;
  onClose: () => void;
}) {
  const [selected, setSelected] = useState(String(lists.find((list) => list.is_default)?.ID ?? lists[0]?.ID ?? ''));
  const [name, setName] = useState('');
  const [empty, setEmpty] = useState(false);
  const [flash, setFlash] = useState(false);
  const nameField = useRef<HTMLInputElement>(null);
  const creating = selected === '';

  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash(false), EMPTY_CHOICE_MS);
    return () => clearTimeout(timer);
  }, [flash]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (creating && name.trim() === '') {
      setEmpty(true);
      setFlash(true);
      nameField.current?.focus();
      return;
    }
    onChoose(creating ? { wishlistId: '', wishlistName: name.trim() } : { wishlistId: Number(selected), wishlistName: '' });
  };

  const flashClass = flash ? `empty-name-wishlist ${styles.empty}` : '';

  return (
    <WishlistModal labelledBy="choose-wishlist-title" onClose={onClose}>
      <form className={styles.chooser} onSubmit={submit} noValidate>
        <h2 id="choose-wishlist-title" className={styles.title}>
          Add “{productName}” to a wishlist
        </h2>
        <div className={styles.field}>
          <label htmlFor="choose-wishlist-list">Wishlist</label>
          <select
            id="choose-wishlist-list"
            className={`tinvwl_wishlist ${creating ? '' : flashClass}`}
            value={selected}
            data-autofocus=""
            onChange={(event) => {
              setSelected(event.currentTarget.value);
              setEmpty(false);
            }}
          >
            {lists.map((list) => (
              <option key={list.ID} value={String(list.ID)}>
                {list.title} ({list.count})
              </option>
            ))}
            <option value="">{settings.wishlist.text_create}</option>
          </select>
        </div>
        {creating && (
          <div className={styles.field}>
            <label htmlFor="choose-wishlist-name">New wishlist’s name</label>
            <input
              ref={nameField}
              id="choose-wishlist-name"
              className={`tinvwl_new_input ${flashClass}`}
              value={name}
              maxLength={100}
              aria-invalid={empty || undefined}
              aria-describedby={empty ? 'choose-wishlist-error' : undefined}
              onInput={(event) => {
                setName(event.currentTarget.value);
                setEmpty(false);
              }}
            />
          </div>
        )}
        <p id="choose-wishlist-error" className={styles.error} role="alert">
          {empty ? EMPTY_CHOICE_MESSAGE : ''}
        </p>
        <div className={styles.buttons}>
          <Button type="submit">Add to Wishlist</Button>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </WishlistModal>
  );
}

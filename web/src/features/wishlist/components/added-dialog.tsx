// The answer to an add, as the original's dialog says it: its lines, "View Wishlist"
// (to the list) and "Close". It closes by itself after the settings' `popup_timer`,
// unless the page is about to go to the list (the answer's `redirect`): closing it
// then stays on this page.
import { useEffect } from 'react';
import { Button } from '@/components/ui/button';
import styles from './wishlist-dialogs.module.css';
import { WishlistModal } from './wishlist-modal';

export function AddedDialog({
  lines,
  success,
  viewUrl,
  closeAfterMs,
  onClose,
}: {
  lines: string[];
  success: boolean;
  viewUrl: string | null;
  /** Null while a redirect is pending. */
  closeAfterMs: number | null;
  onClose: () => void;
}) {
  useEffect(() => {
    if (closeAfterMs === null) return;
    const timer = setTimeout(onClose, closeAfterMs);
    return () => clearTimeout(timer);
  }, [closeAfterMs, onClose]);

  return (
    <WishlistModal labelledBy="wishlist-dialog-text" onClose={onClose}>
      <div className={styles.message} data-success={success}>
        <svg width="40" height="40" viewBox="0 0 24 24" aria-hidden="true" focusable="false" className={styles.messageIcon}>
          {success ? (
            <path d="M12 20.5l-8-8a5 5 0 0 1 8-6 5 5 0 0 1 8 6z" />
          ) : (
            <path d="M6 6l12 12 M18 6L6 18" />
          )}
        </svg>
        <h2 id="wishlist-dialog-text" className={styles.messageText}>
          {lines.map((line, index) => (
            <span key={index}>{line}</span>
          ))}
        </h2>
        <div className={styles.buttons}>
          {viewUrl && (
            <Button onClick={() => window.location.assign(viewUrl)} data-autofocus="">
              View Wishlist
            </Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    </WishlistModal>
  );
}

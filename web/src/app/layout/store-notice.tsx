// The store notice: a line from the shop (FERROSHOP_STORE_NOTICE) at the top of every
// page until the shopper dismisses it. Dismissing sets the original shop's cookie,
// `store_notice{id}=hidden` on the whole site for the browser session; the server
// leaves the notice out of every page that carries it, so it never flashes, and a
// notice with a new id shows again. The server renders it, so it shows without
// scripts too (only dismissing needs them; index.html hides the button then).
import { useState } from 'react';
import { SafeHtml } from '@/components/ui/safe-html';
import { settings } from '@/config/settings';
import styles from './store-notice.module.css';

/** The cookie that says a notice was dismissed. */
export function storeNoticeCookieName(id: string): string {
  return `store_notice${id}`;
}

/** The Set-Cookie text a dismissal writes (`Secure` on a shop served over https). */
export function dismissalCookie(id: string, secure: boolean): string {
  return `${storeNoticeCookieName(id)}=hidden; path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function StoreNotice() {
  const notice = settings.store_notice;
  const [dismissed, setDismissed] = useState(false);
  if (!notice || dismissed) return null;

  const dismiss = () => {
    document.cookie = dismissalCookie(notice.id, window.location.protocol === 'https:');
    setDismissed(true);
  };

  return (
    <section className={`woocommerce-store-notice demo_store ${styles.notice}`} data-notice-id={notice.id} aria-label="Store notice">
      <div className={`container ${styles.inner}`}>
        <SafeHtml html={notice.text} className={styles.text} />
        <button type="button" className={`woocommerce-store-notice__dismiss-link ${styles.dismiss}`} onClick={dismiss}>
          Dismiss
        </button>
      </div>
    </section>
  );
}

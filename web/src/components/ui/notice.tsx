// Notice banners at the top of a page (errors from the server, confirmations).
// Errors are alerts so screen readers read them at once; the rest are polite.
import type { ReactNode } from 'react';
import { Icon } from './icon';
import styles from './notice.module.css';

export type NoticeTone = 'error' | 'success' | 'info';

export function Notice({
  tone = 'info',
  children,
  onDismiss,
}: {
  tone?: NoticeTone;
  children: ReactNode;
  onDismiss?: () => void;
}) {
  return (
    <div className={`${styles.notice} ${styles[tone]}`} role={tone === 'error' ? 'alert' : 'status'}>
      <div className={styles.body}>{children}</div>
      {onDismiss && (
        <button type="button" className={styles.dismiss} onClick={onDismiss} aria-label="Dismiss notice">
          <Icon name="close" size={18} />
        </button>
      )}
    </div>
  );
}

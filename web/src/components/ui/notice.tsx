// Notice banners at the top of a page (errors from the server, confirmations).
// Errors are alerts so screen readers read them at once; the rest are polite.
import type { ReactNode, Ref } from 'react';
import { Icon, type IconName } from './icon';
import styles from './notice.module.css';

export type NoticeTone = 'error' | 'success' | 'info';

export function Notice({
  tone = 'info',
  children,
  onDismiss,
  ref,
  icon,
  className = '',
}: {
  tone?: NoticeTone;
  children: ReactNode;
  onDismiss?: () => void;
  ref?: Ref<HTMLDivElement>;
  /** A leading icon, as the checkout's own notices have. */
  icon?: IconName;
  className?: string;
}) {
  return (
    <div ref={ref} className={`${styles.notice} ${styles[tone]} ${className}`} role={tone === 'error' ? 'alert' : 'status'}>
      {icon && <Icon name={icon} size={18} className={styles.icon} />}
      <div className={styles.body}>{children}</div>
      {onDismiss && (
        <button type="button" className={styles.dismiss} onClick={onDismiss} aria-label="Dismiss notice">
          <Icon name="close" size={18} />
        </button>
      )}
    </div>
  );
}

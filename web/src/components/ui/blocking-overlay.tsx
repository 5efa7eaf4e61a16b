// Covers a region with translucent white while a request about it runs (the original
// shop's blockUI: white at opacity 0.6). The parent must be position: relative. A
// message (a payment's "Please wait...") sits on the veil at full strength.
import styles from './blocking-overlay.module.css';

export const BUSY_MESSAGE = 'Please wait...';

export function BlockingOverlay({ active, message }: { active: boolean; message?: string }) {
  if (!active) return null;
  return (
    <>
      <div className={styles.overlay} aria-hidden="true" data-testid="blocking-overlay" />
      {message && (
        <div className={styles.message} role="status">
          <span className={styles.messageText}>{message}</span>
        </div>
      )}
    </>
  );
}

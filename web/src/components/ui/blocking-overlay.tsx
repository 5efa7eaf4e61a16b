// Covers a region with translucent white while a request about it runs (the original
// shop's blockUI: white at opacity 0.6). The parent must be position: relative.
import styles from './blocking-overlay.module.css';

export function BlockingOverlay({ active }: { active: boolean }) {
  if (!active) return null;
  return <div className={styles.overlay} aria-hidden="true" data-testid="blocking-overlay" />;
}

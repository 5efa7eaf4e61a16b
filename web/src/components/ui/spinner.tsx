// A small rotating ring for busy buttons; the button itself says it is busy (aria-busy).
import styles from './spinner.module.css';

export function Spinner({ size = 16 }: { size?: number }) {
  return <span className={styles.spinner} style={{ width: size, height: size }} aria-hidden="true" />;
}

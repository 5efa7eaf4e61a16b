// "Showing 1–12 of 48 results" and its siblings.
import { resultCountText } from '../lib/result-count';
import styles from './catalog-toolbar.module.css';

export function ResultCount({ total, perPage, page }: { total: number; perPage: number; page: number }) {
  return (
    <p className={styles.count} data-testid="result-count">
      {resultCountText({ total, perPage, page })}
    </p>
  );
}

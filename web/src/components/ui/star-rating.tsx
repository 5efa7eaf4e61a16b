// A rating out of five as stars: the filled part follows the average to the tenth
// ("Rated 4.50 out of 5"). Decorative stars under one accessible name.
import styles from './star-rating.module.css';

export function ratingLabel(rating: number): string {
  return `Rated ${rating.toFixed(2)} out of 5`;
}

export function StarRating({ rating, size = 'md', className = '' }: { rating: number; size?: 'sm' | 'md' | 'lg'; className?: string }) {
  const clamped = Math.min(5, Math.max(0, Number.isFinite(rating) ? rating : 0));
  return (
    <span className={`star-rating ${styles.stars} ${styles[size]} ${className}`} role="img" aria-label={ratingLabel(clamped)}>
      <span className={styles.empty} aria-hidden="true">
        ★★★★★
      </span>
      <span className={styles.filled} style={{ width: `${(clamped / 5) * 100}%` }} aria-hidden="true">
        ★★★★★
      </span>
    </span>
  );
}

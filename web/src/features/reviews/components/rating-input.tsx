// The review form's rating: five stars to choose from (a radio group: arrow keys move
// and choose, as the platform's own radio groups do), holding the choice in the form's
// hidden `rating` field as the original does. Without scripts the field itself shows
// (index.html), a drop-down of the five ratings.
import { useRef, type KeyboardEvent } from 'react';
import styles from './reviews.module.css';

export const RATING_WORDS = ['Very poor', 'Not that bad', 'Average', 'Good', 'Perfect'];

export function RatingInput({ value, onChange, required, labelId }: { value: string; onChange: (value: string) => void; required: boolean; labelId: string }) {
  const group = useRef<HTMLDivElement>(null);
  const chosen = Number.parseInt(value, 10) || 0;

  function choose(rating: number, focus: boolean) {
    onChange(String(rating));
    if (focus) group.current?.querySelector<HTMLElement>(`[data-rating="${rating}"]`)?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, rating: number) {
    const next =
      event.key === 'ArrowRight' || event.key === 'ArrowUp' ? Math.min(5, rating + 1)
      : event.key === 'ArrowLeft' || event.key === 'ArrowDown' ? Math.max(1, rating - 1)
      : event.key === 'Home' ? 1
      : event.key === 'End' ? 5
      : 0;
    if (!next) return;
    event.preventDefault();
    choose(next, true);
  }

  return (
    <>
      <div ref={group} role="radiogroup" aria-labelledby={labelId} aria-required={required} className={`stars ${styles.starPicker}`}>
        {[1, 2, 3, 4, 5].map((rating) => {
          const checked = rating === chosen;
          return (
            <button
              key={rating}
              type="button"
              role="radio"
              aria-checked={checked}
              aria-label={`${rating} of 5 stars: ${RATING_WORDS[rating - 1]}`}
              tabIndex={checked || (chosen === 0 && rating === 1) ? 0 : -1}
              data-rating={rating}
              className={`star-${rating} ${styles.star} ${rating <= chosen ? styles.starOn : ''}`}
              onClick={() => choose(rating, false)}
              onKeyDown={(event) => onKeyDown(event, rating)}
            >
              <span aria-hidden="true">★</span>
            </button>
          );
        })}
        <span className={styles.starWords} aria-hidden="true">
          {chosen ? RATING_WORDS[chosen - 1] : ''}
        </span>
      </div>
      <select id="rating" name="rating" className={styles.ratingField} hidden value={value} onChange={(event) => onChange(event.target.value)} aria-label="Your rating">
        <option value="">Rate…</option>
        {[5, 4, 3, 2, 1].map((rating) => (
          <option key={rating} value={rating}>
            {RATING_WORDS[rating - 1]}
          </option>
        ))}
      </select>
    </>
  );
}

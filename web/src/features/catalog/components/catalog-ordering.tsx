// The sort-by select. Changing it reloads the list at page one and records the
// ordering in the address (?orderby=price-desc), as submitting the original's form does.
// Without scripts it is that form: the rest of the address rides along in hidden
// fields, and a Sort button submits it.
import { useSearchParams } from 'react-router';
import { DEFAULT_ORDERBY, ORDERBY_OPTIONS, type CatalogOrderby } from '../lib/orderby';
import styles from './catalog-toolbar.module.css';

export function CatalogOrdering({ value }: { value: CatalogOrderby }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const kept = [...searchParams].filter(([key]) => key !== 'orderby' && key !== 'page');

  function change(next: string) {
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (next === DEFAULT_ORDERBY) params.delete('orderby');
        else params.set('orderby', next);
        params.delete('page');
        return params;
      },
      // The shopper is looking at the list they just re-sorted; keep the scroll position.
      { preventScrollReset: true },
    );
  }

  return (
    <form method="get" className={styles.ordering} onSubmit={(event) => event.preventDefault()}>
      {kept.map(([key, keptValue], index) => (
        <input key={`${key}-${index}`} type="hidden" name={key} value={keptValue} />
      ))}
      <span className={styles.field}>
        <select
          name="orderby"
          className={styles.select}
          aria-label="Shop order"
          value={value}
          onChange={(event) => change(event.target.value)}
        >
          {ORDERBY_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </span>
      <noscript>
        <button type="submit" className={styles.sortButton}>
          Sort
        </button>
      </noscript>
    </form>
  );
}

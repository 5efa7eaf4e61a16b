// Page links for a listing: ← 1 2 3 … 8 →, keeping the rest of the address (?orderby=, ?s=).
import { useSearchParams } from 'react-router';
import { Link } from '@/components/ui/link';
import { Icon } from '@/components/ui/icon';
import { pageNumbers } from '../lib/listing';
import styles from './pagination.module.css';

export function Pagination({ page, totalPages }: { page: number; totalPages: number }) {
  const [searchParams] = useSearchParams();
  if (totalPages <= 1) return null;

  const hrefFor = (target: number) => {
    const params = new URLSearchParams(searchParams);
    if (target <= 1) params.delete('page');
    else params.set('page', String(target));
    const search = params.toString();
    return search ? `?${search}` : '?';
  };

  return (
    <nav className={styles.pagination} aria-label="Product Pagination">
      <ul>
        {page > 1 && (
          <li>
            <Link to={hrefFor(page - 1)} className={styles.arrow} aria-label="Previous page">
              <Icon name="chevron-left" size={18} />
            </Link>
          </li>
        )}
        {pageNumbers(page, totalPages).map((number, index) =>
          number === null ? (
            <li key={`gap-${index}`} className={styles.gap} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={number}>
              {number === page ? (
                <span className={`${styles.page} ${styles.current}`} aria-current="page">
                  <span className="visually-hidden">Page </span>
                  {number}
                </span>
              ) : (
                <Link to={hrefFor(number)} className={styles.page}>
                  <span className="visually-hidden">Page </span>
                  {number}
                </Link>
              )}
            </li>
          ),
        )}
        {page < totalPages && (
          <li>
            <Link to={hrefFor(page + 1)} className={styles.arrow} aria-label="Next page">
              <Icon name="chevron-right" size={18} />
            </Link>
          </li>
        )}
      </ul>
    </nav>
  );
}

// The header's link to the wishlist page, with the number of items in the shopper's
// default list once it is known (hidden at 0 when the settings say so).
import { Link } from '@/components/ui/link';
import { settings } from '@/config/settings';
import { useWishlistsData } from '../lib/wishlist-store';
import styles from './header-wishlist.module.css';

export function HeaderWishlist({ className }: { className?: string }) {
  const data = useWishlistsData();
  const count = data?.counter ?? 0;
  const shown = data !== null && !(count === 0 && settings.wishlist.hide_zero_counter);
  return (
    <Link to={settings.wishlist.page_url} className={`${styles.link} ${className ?? ''}`} title="Wishlist" aria-label={shown ? `Wishlist, ${count} ${count === 1 ? 'item' : 'items'}` : 'Wishlist'}>
      <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M12 20.5l-8-8a5 5 0 0 1 8-6 5 5 0 0 1 8 6z" />
      </svg>
      {shown && (
        <span className={`wishlist_products_counter_number ${styles.count}`} aria-hidden="true">
          {count}
        </span>
      )}
    </Link>
  );
}

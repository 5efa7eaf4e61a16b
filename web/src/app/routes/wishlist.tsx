// /wishlist/ (the shopper's default list, with their other lists beside it) and
// /wishlist/<share key>/ (the owner's list to manage, or a list shared with anyone
// who has its link, read-only), both paged with ?wl_paged=N. The server renders the
// page with the list's data.
import { useLocation, useParams } from 'react-router';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { paths } from '@/config/paths';
import { useWishlist } from '@/features/wishlist/api/get-wishlist';
import { WishlistPage } from '@/features/wishlist/components/wishlist-page';
import { pageFromSearch } from '@/features/wishlist/lib/wishlist-page';
import { useDocumentTitle } from '@/hooks/use-document-title';
import styles from './page.module.css';

/**
 * Asks the cart feature to fetch the cart again (header, mini-cart) with the shop's
 * own signal, the original's `wc_fragment_refresh`, which the app's cart sync answers.
 * A signal rather than an import: this page's chunk then shares no module with the
 * cart's, which would otherwise be split apart on every product page.
 */
const refreshCart = () => document.body.dispatchEvent(new Event('wc_fragment_refresh'));

export default function WishlistRoute() {
  const { key } = useParams();
  const { pathname, search } = useLocation();
  const page = pageFromSearch(search);
  const { data: list } = useWishlist(key ?? 'default', page);
  // The share page is titled by its list.
  const title = key && list && !list.is_owner ? list.title : 'Wishlist';
  useDocumentTitle(title);

  return (
    <div className={`container ${styles.page}`}>
      <Breadcrumbs crumbs={[{ label: 'Home', to: paths.home() }, { label: 'Wishlist' }]} />
      <h1 className={styles.title}>{title}</h1>
      <WishlistPage
        key={key ?? 'default'}
        listKey={key}
        page={page}
        pathname={pathname}
        onCartChanged={refreshCart}
      />
    </div>
  );
}

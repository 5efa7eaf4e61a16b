// The header: shop name, category navigation, product search, the account, the
// wishlist and the cart.
// It keeps its height in --site-header-height on the page's root, for what sits below
// it while it sticks to the top (the brands index, jumps to anchors).
import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router';
import { Link } from '@/components/ui/link';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { settings } from '@/config/settings';
import { HeaderCart } from '@/features/cart/components/header-cart';
import { HeaderWishlist } from '@/features/wishlist/components/header-wishlist';
import { MainNav } from './main-nav';
import { SearchForm } from './search-form';
import { SEARCH_FORM_ID, setSearchOpen, useSearchOpen } from './search-toggle';
import styles from './site-header.module.css';

/** Writes the header's height to --site-header-height whenever it changes. */
function useHeightProperty(header: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const element = header.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      root.style.setProperty('--site-header-height', `${element.getBoundingClientRect().height}px`);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--site-header-height');
    };
  }, [header]);
}

export function SiteHeader() {
  const header = useRef<HTMLElement>(null);
  const searchOpen = useSearchOpen();
  const { pathname, search } = useLocation();
  useHeightProperty(header);

  // A search sent (or any other page opened) folds the phone's search away again.
  useEffect(() => setSearchOpen(false), [pathname, search]);

  return (
    <header ref={header} className={styles.header}>
      <div className={`container ${styles.bar}`}>
        <div className={styles.menu}>
          <MainNav />
        </div>
        <Link to={paths.home()} className={styles.logo}>
          <span className={styles.mark} aria-hidden="true">
            F
          </span>
          {settings.shop_name}
        </Link>
        <div id={SEARCH_FORM_ID} className={styles.search} data-open={searchOpen}>
          <SearchForm />
        </div>
        <div className={styles.cart}>
          <Link
            to={paths.account()}
            className={styles.account}
            aria-label={settings.account.logged_in ? 'My account' : 'Log in or register'}
            title={settings.account.logged_in ? 'My account' : 'Log in or register'}
          >
            <Icon name="user" size={22} />
          </Link>
          <HeaderWishlist />
          <HeaderCart />
        </div>
      </div>
    </header>
  );
}

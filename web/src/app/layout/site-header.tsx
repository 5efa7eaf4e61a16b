// The header: shop name, category navigation, product search and the cart.
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { settings } from '@/config/settings';
import { HeaderCart } from '@/features/cart/components/header-cart';
import { MainNav } from './main-nav';
import { SearchForm } from './search-form';
import styles from './site-header.module.css';

export function SiteHeader() {
  return (
    <header className={styles.header}>
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
        <div className={styles.search}>
          <SearchForm />
        </div>
        <div className={styles.cart}>
          <HeaderCart />
        </div>
      </div>
    </header>
  );
}

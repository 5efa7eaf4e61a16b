// The header: shop name, category navigation, product search, the account and the cart.
import { Link } from '@/components/ui/link';
import { Icon } from '@/components/ui/icon';
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
          <Link
            to={paths.account()}
            className={styles.account}
            aria-label={settings.account.logged_in ? 'My account' : 'Log in or register'}
            title={settings.account.logged_in ? 'My account' : 'Log in or register'}
          >
            <Icon name="user" size={22} />
          </Link>
          <HeaderCart />
        </div>
      </div>
    </header>
  );
}

// The account area around its pages: the navigation (Dashboard, Orders, Addresses,
// Payment methods when the shop keeps cards, Account details, Log out) and the page itself.
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { NavLink } from '@/components/ui/link';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { useLogOut } from '../api/log-out';
import styles from './account.module.css';

const LINKS = [
  { to: paths.account(), label: 'Dashboard', end: true, slug: 'dashboard' },
  // One order belongs under "Orders" too.
  { to: paths.accountOrders(), label: 'Orders', end: false, slug: 'orders', also: '/my-account/view-order/' },
  { to: paths.accountAddresses(), label: 'Addresses', end: false, slug: 'edit-address' },
  // Adding a method belongs under "Payment methods" too.
  { to: paths.accountPaymentMethods(), label: 'Payment methods', end: false, slug: 'payment-methods', also: '/my-account/add-payment-method', payments: true },
  { to: paths.accountDetails(), label: 'Account details', end: false, slug: 'edit-account' },
];

export function LogOutButton({ className, children = 'Log out' }: { className?: string; children?: ReactNode }) {
  const logOut = useLogOut(paths.account());
  return (
    <button type="button" className={className} onClick={() => logOut.mutate()} disabled={logOut.isPending}>
      {children}
    </button>
  );
}

export function AccountShell({ children, paymentMethods = false }: { children: ReactNode; /** The shop keeps saved cards. */ paymentMethods?: boolean }) {
  const { pathname } = useLocation();
  const links = LINKS.filter((link) => !('payments' in link) || paymentMethods);
  return (
    <div className={styles.shell}>
      <nav className={`woocommerce-MyAccount-navigation ${styles.nav}`} aria-label="Account pages">
        <ul>
          {links.map((link) => (
            <li key={link.slug} className={`woocommerce-MyAccount-navigation-link--${link.slug}`}>
              <NavLink
                to={link.to}
                end={link.end}
                className={({ isActive }) =>
                  `${styles.navLink} ${isActive || (link.also && pathname.startsWith(link.also)) ? `is-active ${styles.navActive}` : ''}`
                }
              >
                {link.label}
              </NavLink>
            </li>
          ))}
          <li className="woocommerce-MyAccount-navigation-link--customer-logout">
            <LogOutButton className={`${styles.navLink} ${styles.navLogout}`}>
              <Icon name="arrow-right" size={16} />
              Log out
            </LogOutButton>
          </li>
        </ul>
      </nav>
      <div className={`woocommerce-MyAccount-content ${styles.content}`}>{children}</div>
    </div>
  );
}

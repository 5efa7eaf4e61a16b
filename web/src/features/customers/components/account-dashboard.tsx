// The account dashboard: a greeting with a way out, and what the area offers.
import { Link } from '@/components/ui/link';
import { paths } from '@/config/paths';
import { settings } from '@/config/settings';
import { useAccount } from '../api/get-account';
import { LogOutButton } from './account-shell';
import styles from './account.module.css';

export function AccountDashboard() {
  const { data } = useAccount();
  const name = data?.user.display_name || settings.account.display_name || data?.user.email || settings.account.email;
  return (
    <div className={styles.dashboard}>
      <p className={styles.greeting}>
        Hello <strong>{name}</strong> (not <strong>{name}</strong>? <LogOutButton className={styles.inlineLink}>Log out</LogOutButton>)
      </p>
      <p className={styles.muted}>
        From your account dashboard you can view your <Link to={paths.accountOrders()}>recent orders</Link>, manage your{' '}
        <Link to={paths.accountAddresses()}>shipping and billing addresses</Link>, and{' '}
        <Link to={paths.accountDetails()}>edit your password and account details</Link>.
      </p>
      <ul className={styles.tiles}>
        <li>
          <Link to={paths.accountOrders()} className={styles.tile}>
            <strong>Orders</strong>
            <span>Track and view past orders</span>
          </Link>
        </li>
        <li>
          <Link to={paths.accountAddresses()} className={styles.tile}>
            <strong>Addresses</strong>
            <span>Billing and shipping</span>
          </Link>
        </li>
        <li>
          <Link to={paths.accountDetails()} className={styles.tile}>
            <strong>Account details</strong>
            <span>Name, e-mail and password</span>
          </Link>
        </li>
      </ul>
    </div>
  );
}

// Loads the customer for the account details form.
import { Notice } from '@/components/ui/notice';
import { useAccount } from '../api/get-account';
import { AccountDetailsForm } from './account-details-form';
import styles from './account.module.css';

export function AccountDetails() {
  const { data, error } = useAccount();
  if (error) return <Notice tone="error">{error.message}</Notice>;
  if (!data) return <p className={styles.muted} aria-busy="true">Loading…</p>;
  return <AccountDetailsForm user={data.user} />;
}

// Loads what the address form needs (the saved address and the address rules), then shows it.
import { Notice } from '@/components/ui/notice';
import { useAddressLocale } from '@/lib/address-locale';
import { useAccount } from '../api/get-account';
import type { AddressType } from '../api/update-address';
import { EditAddressForm } from './edit-address-form';
import styles from './account.module.css';

export function EditAddress({ type }: { type: AddressType }) {
  const account = useAccount();
  const locale = useAddressLocale();
  const error = account.error ?? locale.error;
  if (error) return <Notice tone="error">{error.message}</Notice>;
  if (!account.data || !locale.data) return <p className={styles.muted} aria-busy="true">Loading…</p>;
  return <EditAddressForm key={type} type={type} saved={account.data[type]} locale={locale.data} />;
}

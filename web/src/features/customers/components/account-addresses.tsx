// /my-account/edit-address: the saved billing and shipping addresses as two cards.
import { useLocation } from 'react-router';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { paths } from '@/config/paths';
import { useAddressLocale } from '@/lib/address-locale';
import { addressLines } from '@/lib/format-address';
import { useAccount } from '../api/get-account';
import styles from './account.module.css';

export function AccountAddresses() {
  const { data, error, isPending } = useAccount();
  const { data: locale } = useAddressLocale();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  if (error) return <Notice tone="error">{error.message}</Notice>;
  if (isPending) return <p className={styles.muted} aria-busy="true">Loading your addresses…</p>;

  const cards = [
    { type: 'billing' as const, title: 'Billing address', address: data.billing },
    { type: 'shipping' as const, title: 'Shipping address', address: data.shipping },
  ];
  return (
    <div className={styles.stack}>
      {notice && <Notice tone="success">{notice}</Notice>}
      <p className={styles.muted}>The following addresses will be used on the checkout page by default.</p>
      <div className={`u-columns woocommerce-Addresses col2-set addresses ${styles.addressCards}`}>
        {cards.map((card) => {
          const lines = addressLines(card.address, locale);
          return (
            <section key={card.type} className={`woocommerce-Address ${styles.addressCard}`} aria-labelledby={`${card.type}-address-heading`}>
              <header className={styles.addressHeader}>
                <h2 id={`${card.type}-address-heading`} className={styles.cardTitle}>
                  {card.title}
                </h2>
                <Link to={paths.accountEditAddress(card.type)} className={styles.editLink} aria-label={`${lines.length > 0 ? 'Edit' : 'Add'} ${card.title}`}>
                  {lines.length > 0 ? 'Edit' : 'Add'}
                </Link>
              </header>
              <address data-testid={`${card.type}-address`}>
                {lines.length > 0 ? lines.map((line, index) => <span key={index}>{line}</span>) : <span className={styles.muted}>You have not set up this type of address yet.</span>}
              </address>
            </section>
          );
        })}
      </div>
    </div>
  );
}

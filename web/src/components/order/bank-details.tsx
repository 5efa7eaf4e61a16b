// "Our bank details" for orders paid by direct bank transfer.
import type { BankAccount } from '@/types/order';
import styles from './order.module.css';

const ROWS: [keyof BankAccount, string][] = [
  ['bank_name', 'Bank'],
  ['account_number', 'Account number'],
  ['sort_code', 'Sort code'],
  ['iban', 'IBAN'],
  ['bic', 'BIC'],
];

export function BankDetails({ accounts }: { accounts: BankAccount[] }) {
  if (accounts.length === 0) return null;
  return (
    <section className={`woocommerce-bacs-bank-details ${styles.bank}`} aria-labelledby="bank-details-heading">
      <h2 id="bank-details-heading" className={`wc-bacs-bank-details-heading ${styles.heading}`}>
        Our bank details
      </h2>
      {accounts.map((account, index) => (
        <div key={`${account.account_number}-${index}`} className={styles.bankAccount}>
          {account.account_name && <h3 className={`wc-bacs-bank-details-account-name ${styles.bankName}`}>{account.account_name}:</h3>}
          <dl className={`wc-bacs-bank-details order_details bacs_details ${styles.bankList}`}>
            {ROWS.filter(([key]) => account[key]).map(([key, label]) => (
              <div key={key} className={key}>
                <dt>{label}:</dt>
                <dd>{account[key]}</dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
    </section>
  );
}

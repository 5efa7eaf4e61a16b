// The card box before its settings arrive: the element's place kept, or a note when the
// settings could not be had (the gateway is then not offered at all).
import { REQUEST_FAILED_MESSAGE } from '../lib/payment-errors';
import styles from './payment-box.module.css';

export function PaymentBoxUnavailable({ loading }: { loading: boolean }) {
  return (
    <div className={`wc-stripe-upe-element-box ${styles.box}`}>
      {loading ? (
        <div className={`wc-stripe-upe-element ${styles.element}`} aria-busy="true" />
      ) : (
        <p className={`woocommerce-error ${styles.loadError}`} role="alert">
          {REQUEST_FAILED_MESSAGE}
        </p>
      )}
    </div>
  );
}

// What a payment page shows about a payment return fragment in its address (see
// usePaymentReturn): the page blocked while it is handled, and its message in the
// page's notice area, brought into view and raised as a checkout error on the page's
// payment form, as a failed payment is.
import { useEffect, useRef } from 'react';
import { raiseCheckoutError } from '@/components/payment/payment-methods';
import { BlockingOverlay, BUSY_MESSAGE } from '@/components/ui/blocking-overlay';
import { Notice } from '@/components/ui/notice';
import { NOTICE_SCROLL, scrollToElement } from '@/lib/scroll';
import type { PaymentReturnState } from '../hooks/use-payment-return';
import styles from './payment-return-status.module.css';

/** The payment forms of the payment pages (checkout, order-pay, add payment method). */
const PAYMENT_FORMS = 'form[name="checkout"], form#order_review, form#add_payment_method';

export function PaymentReturnStatus({ state }: { state: PaymentReturnState }) {
  const noticeRef = useRef<HTMLDivElement>(null);
  const { error } = state;

  useEffect(() => {
    if (!error) return;
    if (noticeRef.current) scrollToElement(noticeRef.current, NOTICE_SCROLL);
    raiseCheckoutError(document.querySelector<HTMLFormElement>(PAYMENT_FORMS), error.message);
  }, [error]);

  return (
    <>
      {error && (
        <div ref={noticeRef} className={`woocommerce-notices-wrapper ${styles.notice}`} data-testid="payment-return-notice">
          <Notice tone="error">{error.message}</Notice>
        </div>
      )}
      {state.busy && (
        <div className={`processing ${styles.veil}`} data-testid="payment-return-busy" aria-busy="true">
          <BlockingOverlay active message={BUSY_MESSAGE} />
        </div>
      )}
    </>
  );
}

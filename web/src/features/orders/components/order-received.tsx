// The thank-you page after checkout: the order's overview, how to pay it (bank details
// for transfers, else the method's instructions), its details and addresses.
import { ButtonLink } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { Notice } from '@/components/ui/notice';
import { BankDetails } from '@/components/order/bank-details';
import { OrderDetails } from '@/components/order/order-details';
import { OrderOverview } from '@/components/order/order-overview';
import { SafeHtml } from '@/components/ui/safe-html';
import { paths, toAppPath } from '@/config/paths';
import { useOrder } from '../api/get-order';
import styles from './orders.module.css';

export const INVALID_ORDER = 'Sorry, this order is invalid and cannot be paid for.';

/**
 * `redirectStatus`: what the provider's page said when it sent the shopper back
 * (`redirect_status`: succeeded, processing or failed), for methods that leave the shop.
 */
export function OrderReceived({ orderId, orderKey, redirectStatus = '' }: { orderId: string; orderKey: string; redirectStatus?: string }) {
  const returned = redirectStatus !== '';
  const { data: order, error, isPending } = useOrder(orderId, orderKey, { awaitingPayment: returned && redirectStatus !== 'failed' });

  if (!orderKey || error) {
    return (
      <div className={styles.stack}>
        <Notice tone="error">{error?.message || INVALID_ORDER}</Notice>
        <ButtonLink to={paths.shop()} variant="secondary">
          Return to shop
        </ButtonLink>
      </div>
    );
  }
  if (isPending) return <p className={styles.muted} aria-busy="true">Loading your order…</p>;

  // Refused at the bank: the order waits to be paid again, whatever the webhook says yet.
  const failed = order.status === 'failed' || (redirectStatus === 'failed' && order.needs_payment);
  return (
    <div className={`woocommerce-order ${styles.stack}`}>
      {failed ? (
        <div className={styles.stack}>
          <Notice tone="error">Unfortunately your order cannot be processed as the originating bank/merchant has declined your transaction. Please attempt your purchase again.</Notice>
          {order.needs_payment && order.pay_url && <ButtonLink to={toAppPath(order.pay_url)}>Pay</ButtonLink>}
        </div>
      ) : (
        <p className={`woocommerce-notice woocommerce-notice--success woocommerce-thankyou-order-received ${styles.thanks}`}>
          <span className={styles.thanksIcon}>
            <Icon name="check" size={22} />
          </span>
          Thank you. Your order has been received.
        </p>
      )}
      <OrderOverview order={order} />
      {order.payment_instructions && (
        <SafeHtml html={order.payment_instructions} className={`${styles.instructions} ${order.payment_method}-instructions`} />
      )}
      {order.payment_method === 'bacs' && <BankDetails accounts={order.bank_accounts} />}
      <OrderDetails order={order} />
    </div>
  );
}

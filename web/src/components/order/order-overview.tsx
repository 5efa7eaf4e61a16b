// The short overview at the top of the order-received page: number, date, e-mail,
// total and payment method.
import { formatOrderDate } from '@/lib/format-address';
import { formatPrice } from '@/lib/format-price';
import type { Order } from '@/types/order';
import styles from './order.module.css';

export function OrderOverview({ order }: { order: Order }) {
  const email = order.billing_address.email;
  return (
    <ul className={`woocommerce-order-overview order_details ${styles.overview}`}>
      <li className="woocommerce-order-overview__order order">
        <span>Order number:</span>
        <strong data-testid="order-number">{order.number}</strong>
      </li>
      <li className="woocommerce-order-overview__date date">
        <span>Date:</span>
        <strong>{formatOrderDate(order.date_created)}</strong>
      </li>
      {email && (
        <li className="woocommerce-order-overview__email email">
          <span>Email:</span>
          <strong>{email}</strong>
        </li>
      )}
      <li className="woocommerce-order-overview__total total">
        <span>Total:</span>
        <strong data-testid="order-overview-total">{formatPrice(order.totals.total, order.totals)}</strong>
      </li>
      {order.payment_method_title && (
        <li className="woocommerce-order-overview__payment-method method">
          <span>Payment method:</span>
          <strong>{order.payment_method_title}</strong>
        </li>
      )}
    </ul>
  );
}

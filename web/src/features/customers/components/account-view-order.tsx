// /my-account/view-order/:id: one of the customer's orders in full.
import { ButtonLink } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { OrderDetails } from '@/components/order/order-details';
import { paths } from '@/config/paths';
import { formatOrderDate } from '@/lib/format-address';
import { useAccountOrder } from '../api/get-account-orders';
import styles from './account.module.css';

export function AccountViewOrder({ orderId }: { orderId: string }) {
  const { data: order, error, isPending } = useAccountOrder(orderId);
  if (error) {
    return (
      <div className={styles.stack}>
        <Notice tone="error">{error.message || 'Invalid order.'}</Notice>
        <ButtonLink to={paths.accountOrders()} variant="secondary" size="sm">
          Back to orders
        </ButtonLink>
      </div>
    );
  }
  if (isPending) return <p className={styles.muted} aria-busy="true">Loading the order…</p>;
  return (
    <div className={styles.stack}>
      <p className={styles.orderIntro}>
        Order #<mark className="order-number">{order.number}</mark> was placed on <mark className="order-date">{formatOrderDate(order.date_created)}</mark> and
        is currently <mark className="order-status">{order.status_label}</mark>.
      </p>
      <OrderDetails order={order} />
    </div>
  );
}

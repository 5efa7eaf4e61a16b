// /order-tracking: guest order lookup.
import { OrderTracking } from '@/features/orders/components/order-tracking';
import { useDocumentTitle } from '@/hooks/use-document-title';
import styles from './page.module.css';

export default function OrderTrackingRoute() {
  useDocumentTitle('Track your order');
  return (
    <div className={`container ${styles.page}`}>
      <h1 className={styles.title}>Track your order</h1>
      <OrderTracking />
    </div>
  );
}

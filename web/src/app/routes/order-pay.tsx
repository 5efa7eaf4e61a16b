// /checkout/order-pay/{id}?pay_for_order=true&key=…: paying a pending order.
import { useParams, useSearchParams } from 'react-router';
import { OrderPay } from '@/features/orders/components/order-pay';
import { useDocumentTitle } from '@/hooks/use-document-title';
import styles from './page.module.css';

export default function OrderPayRoute() {
  useDocumentTitle('Pay for order');
  const orderId = useParams().orderId ?? '';
  const key = useSearchParams()[0].get('key') ?? '';
  return (
    <div className={`container ${styles.page}`}>
      <h1 className={styles.title}>Pay for order</h1>
      <OrderPay orderId={orderId} orderKey={key} />
    </div>
  );
}

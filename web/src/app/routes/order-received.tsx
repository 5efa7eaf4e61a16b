// /checkout/order-received/{id}?key=…: the thank-you page.
import { useParams, useSearchParams } from 'react-router';
import { OrderReceived } from '@/features/orders/components/order-received';
import { useDocumentTitle } from '@/hooks/use-document-title';
import styles from './page.module.css';

export default function OrderReceivedRoute() {
  useDocumentTitle('Order received');
  const orderId = useParams().orderId ?? '';
  const [search] = useSearchParams();
  const key = search.get('key') ?? '';
  const redirectStatus = search.get('redirect_status') ?? '';
  return (
    <div className={`container ${styles.page}`}>
      <h1 className={styles.title}>Order received</h1>
      <OrderReceived orderId={orderId} orderKey={key} redirectStatus={redirectStatus} />
    </div>
  );
}

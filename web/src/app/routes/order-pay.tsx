// /checkout/order-pay/{id}?pay_for_order=true&key=…: paying a pending order, or with
// `change_payment_method` changing the payment method of one. Its card payments are
// the payments feature's, composed here.
import { useParams, useSearchParams } from 'react-router';
import { OrderPay } from '@/features/orders/components/order-pay';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { usePaymentBinding } from '../payment-binding';
import styles from './page.module.css';

export default function OrderPayRoute() {
  const orderId = useParams().orderId ?? '';
  const [params] = useSearchParams();
  const key = params.get('key') ?? '';
  const changing = params.has('change_payment_method');
  const title = changing ? 'Change payment method' : 'Pay for order';
  useDocumentTitle(title);
  const payments = usePaymentBinding({ context: changing ? 'change-payment' : 'order-pay', orderId, orderKey: key });
  return (
    <div className={`container ${styles.page}`}>
      <h1 className={styles.title}>{title}</h1>
      <OrderPay orderId={orderId} orderKey={key} payments={payments} changing={changing} />
    </div>
  );
}

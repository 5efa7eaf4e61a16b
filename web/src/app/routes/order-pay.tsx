// /checkout/order-pay/{id}?pay_for_order=true&key=…: paying a pending order, or with
// `change_payment_method` changing the payment method of one. Its card payments are
// the payments feature's, composed here.
import { useQueryClient } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { getOrderQueryOptions } from '@/features/orders/api/get-order';
import { OrderPay } from '@/features/orders/components/order-pay';
import { PaymentReturnStatus } from '@/features/payments/components/payment-return-status';
import { usePaymentReturn } from '@/features/payments/hooks/use-payment-return';
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
  const scope = { context: changing ? 'change-payment' : 'order-pay', orderId, orderKey: key } as const;
  const payments = usePaymentBinding(scope);
  const queryClient = useQueryClient();
  // A payment that comes back to the page in its address: the order's next page reads it afresh.
  const returning = usePaymentReturn(scope, {
    enabled: payments !== undefined,
    onLeave: () => queryClient.removeQueries({ queryKey: getOrderQueryOptions(orderId, key).queryKey }),
  });
  return (
    <div className={`container ${styles.page}`}>
      <h1 className={styles.title}>{title}</h1>
      <PaymentReturnStatus state={returning} />
      <OrderPay orderId={orderId} orderKey={key} payments={payments} changing={changing} />
    </div>
  );
}

// The pay-for-order page of a pending order: its items and totals, the payment
// methods and "Pay for order", which follows the payment result's redirect.
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { PaymentMethods } from '@/components/payment/payment-methods';
import { OrderDetails } from '@/components/order/order-details';
import { Button } from '@/components/ui/button';
import { BlockingOverlay } from '@/components/ui/blocking-overlay';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { settings } from '@/config/settings';
import { leavePage } from '@/lib/leave-page';
import type { Order } from '@/types/order';
import { useOrder } from '../api/get-order';
import { usePayForOrder } from '../api/pay-for-order';
import { INVALID_ORDER } from './order-received';
import styles from './orders.module.css';

function PayForm({ order }: { order: Order }) {
  const navigate = useNavigate();
  const gateways = settings.checkout.gateways;
  const [method, setMethod] = useState(() => gateways.find((gateway) => gateway.id === order.payment_method)?.id ?? gateways[0]?.id ?? '');
  const pay = usePayForOrder();
  const chosen = gateways.find((gateway) => gateway.id === method);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pay.isPending || pay.isSuccess) return;
    pay.mutate(
      { order, paymentMethod: method },
      {
        onSuccess: (result) => {
          const target = new URL(result.payment_result.redirect_url || order.received_url, window.location.href);
          if (target.origin === window.location.origin) navigate(target.pathname + target.search);
          else leavePage(target.href);
        },
      },
    );
  };

  return (
    <form method="post" id="order_review" className={styles.payForm} onSubmit={submit} noValidate>
      <OrderDetails order={order} heading="Order summary" showAddresses={false} />
      {pay.error && <Notice tone="error">{pay.error.message}</Notice>}
      <div className={styles.payBox}>
        <h2 className={styles.heading}>Payment method</h2>
        <PaymentMethods gateways={gateways} selected={method} onSelect={setMethod} disabled={pay.isPending} />
        <Button type="submit" size="lg" block id="place_order" disabled={!method} aria-busy={pay.isPending}>
          {(pay.isPending || pay.isSuccess) && <Spinner size={18} />}
          {chosen?.order_button_text || 'Pay for order'}
        </Button>
      </div>
      <BlockingOverlay active={pay.isPending || pay.isSuccess} />
    </form>
  );
}

export function OrderPay({ orderId, orderKey }: { orderId: string; orderKey: string }) {
  const { data: order, error, isPending } = useOrder(orderId, orderKey);
  if (!orderKey || error) return <Notice tone="error">{error?.message || INVALID_ORDER}</Notice>;
  if (isPending) return <p className={styles.muted} aria-busy="true">Loading your order…</p>;
  if (!order.needs_payment) {
    return (
      <Notice tone="error">
        This order’s status is “{order.status_label}”—it cannot be paid for. Please contact us if you need assistance.
      </Notice>
    );
  }
  return <PayForm order={order} />;
}

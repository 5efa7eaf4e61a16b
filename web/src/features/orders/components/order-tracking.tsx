// /order-tracking: a guest looks an order up by its number and billing e-mail, and
// sees it as on the thank-you page.
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FieldGrid, FormRow, statusAria, TextInput } from '@/components/ui/form-field';
import { Notice } from '@/components/ui/notice';
import { OrderDetails } from '@/components/order/order-details';
import { Spinner } from '@/components/ui/spinner';
import { formatOrderDate } from '@/lib/format-address';
import type { FieldStatuses } from '@/types/field-status';
import { useLookUpOrder } from '../api/look-up-order';
import styles from './orders.module.css';

export function OrderTracking() {
  const [orderNumber, setOrderNumber] = useState('');
  const [email, setEmail] = useState('');
  const [statuses, setStatuses] = useState<FieldStatuses>({});
  const lookUp = useLookUpOrder();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing: FieldStatuses = {};
    if (!orderNumber.trim()) missing.orderid = { valid: false, code: 'required', message: 'Order ID is a required field.' };
    if (!email.trim()) missing.order_email = { valid: false, code: 'required', message: 'Billing email is a required field.' };
    setStatuses(missing);
    if (Object.keys(missing).length > 0) return;
    lookUp.mutate({ order_number: orderNumber.trim().replace(/^#/, ''), billing_email: email.trim() });
  };

  const order = lookUp.data;
  return (
    <div className={styles.stack}>
      <form method="post" className={`woocommerce-form woocommerce-form-track-order track_order ${styles.trackForm}`} onSubmit={submit} noValidate aria-label="Track your order">
        <p className={styles.muted}>
          To track your order please enter your Order ID in the box below and press the “Track” button. This was given to you on your receipt and in the
          confirmation email you should have received.
        </p>
        {lookUp.error && <Notice tone="error">{lookUp.error.message}</Notice>}
        <FieldGrid>
          <FormRow fieldId="orderid" label="Order ID" width="first" required status={statuses.orderid}>
            <TextInput
              id="orderid"
              name="orderid"
              placeholder="Found in your order confirmation email."
              value={orderNumber}
              onChange={(event) => {
                setOrderNumber(event.target.value);
                setStatuses((current) => ({ ...current, orderid: undefined }));
              }}
              {...statusAria('orderid', statuses.orderid)}
            />
          </FormRow>
          <FormRow fieldId="order_email" label="Billing email" width="last" required status={statuses.order_email}>
            <TextInput
              id="order_email"
              name="order_email"
              type="email"
              autoComplete="email"
              placeholder="Email you used during checkout."
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                setStatuses((current) => ({ ...current, order_email: undefined }));
              }}
              {...statusAria('order_email', statuses.order_email)}
            />
          </FormRow>
        </FieldGrid>
        <div>
          <Button type="submit" name="track" value="Track" disabled={lookUp.isPending} aria-busy={lookUp.isPending}>
            {lookUp.isPending && <Spinner />}
            Track
          </Button>
        </div>
      </form>
      {order && (
        <section className={styles.stack} aria-live="polite">
          <p className={styles.orderIntro}>
            Order #<mark className="order-number">{order.number}</mark> was placed on <mark className="order-date">{formatOrderDate(order.date_created)}</mark>{' '}
            and is currently <mark className="order-status">{order.status_label}</mark>.
          </p>
          <OrderDetails order={order} />
        </section>
      )}
    </div>
  );
}

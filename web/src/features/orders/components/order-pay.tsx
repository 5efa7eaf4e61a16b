// The pay-for-order page of a pending order: its items and totals, the payment
// methods and "Pay for order", which follows the payment result's redirect. A gateway
// with a payment form (the card) pays through its PaymentSubmission, which may confirm
// the payment in place (3-D Secure). With `change_payment_method` in the address the
// page changes the order's payment method instead (the card saved through a setup).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PaymentMethods, raiseCheckoutError } from '@/components/payment/payment-methods';
import { OrderDetails } from '@/components/order/order-details';
import { Button } from '@/components/ui/button';
import { BlockingOverlay, BUSY_MESSAGE } from '@/components/ui/blocking-overlay';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { settings } from '@/config/settings';
import { ApiError, NETWORK_ERROR_MESSAGE } from '@/lib/api-client';
import { leavePage } from '@/lib/leave-page';
import { NOTICE_SCROLL, scrollToElement } from '@/lib/scroll';
import type { Order } from '@/types/order';
import type { PaymentBinding, PaymentDataItem, PaymentNoticeState, PaymentSubmission } from '@/types/payment-binding';
import { getOrderQueryOptions, useOrder } from '../api/get-order';
import { usePayForOrder } from '../api/pay-for-order';
import { INVALID_ORDER } from './order-received';
import styles from './orders.module.css';

type Phase = 'idle' | 'busy' | 'leaving';

function PayForm({ order, payments, changing }: { order: Order; payments?: PaymentBinding; changing: boolean }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // A payment that failed on the checkout sent the shopper here with its message.
  const location = useLocation();
  const arrived = (location.state as PaymentNoticeState | null)?.paymentNotice ?? null;
  const billingCountry = order.billing_address.country ?? settings.checkout.default_country;
  const gateways = useMemo(
    () =>
      settings.checkout.gateways.filter(
        (gateway) => (!changing || payments?.hasBox(gateway.id) === true) && (payments?.isAvailable(gateway.id, billingCountry) ?? true),
      ),
    [changing, payments, billingCountry],
  );
  const [method, setMethod] = useState(() => gateways.find((gateway) => gateway.id === order.payment_method)?.id ?? gateways[0]?.id ?? '');
  const [phase, setPhase] = useState<Phase>('idle');
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<string | null>(arrived);
  const pay = usePayForOrder();
  const busy = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const [scrollRequest, setScrollRequest] = useState(0);
  const submissions = useRef(new Map<string, PaymentSubmission>());
  const onSubmission = useCallback((gatewayId: string, submission: PaymentSubmission | null) => {
    if (submission) submissions.current.set(gatewayId, submission);
    else submissions.current.delete(gatewayId);
  }, []);
  const chosen = gateways.find((gateway) => gateway.id === method);

  // A method hidden for the order's country (or not offered any more) is not kept chosen.
  useEffect(() => {
    if (gateways.length > 0 && !gateways.some((gateway) => gateway.id === method)) setMethod(gateways[0]!.id);
  }, [gateways, method]);

  useEffect(() => {
    if (scrollRequest > 0 && noticeRef.current) scrollToElement(noticeRef.current, NOTICE_SCROLL);
  }, [scrollRequest]);

  // Arriving (again) with a message shows it.
  useEffect(() => {
    if (arrived) setError(arrived);
  }, [arrived, location.key]);

  const orderQuery = getOrderQueryOptions(String(order.id), order.order_key).queryKey;
  const goTo = (url: string) => {
    setPhase('leaving');
    // The order changed: the page shown next (its thank-you page) reads it afresh.
    queryClient.removeQueries({ queryKey: orderQuery });
    const target = new URL(url || order.received_url, window.location.href);
    if (target.origin === window.location.origin) navigate(target.pathname + target.search + target.hash);
    else leavePage(target.href);
  };

  const failWith = (message: string, paymentFailed: boolean) => {
    busy.current = false;
    setPhase('idle');
    setPaying(false);
    setError(message || null);
    if (message) setScrollRequest((count) => count + 1);
    if (paymentFailed) raiseCheckoutError(formRef.current, message);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // One payment at a time: a second send while one runs is ignored.
    if (busy.current || phase !== 'idle') return;
    busy.current = true;
    setPhase('busy');
    setError(null);

    const withBox = payments?.hasBox(method) === true;
    const submission = withBox ? submissions.current.get(method) : undefined;
    if (withBox && !submission) {
      failWith(settings.checkout.i18n_checkout_error, true);
      return;
    }
    if (submission) setPaying(true);

    if (changing && submission) {
      const outcome = await submission.save();
      if (outcome.ok) goTo(outcome.redirect);
      else failWith(outcome.message, true);
      return;
    }

    let paymentData: PaymentDataItem[] = [];
    if (submission) {
      const prepared = await submission.prepare();
      if (!prepared.ok) {
        failWith(prepared.message, true);
        return;
      }
      paymentData = prepared.paymentData;
    }
    try {
      const result = await pay.mutateAsync({ order, paymentMethod: method, paymentData });
      if (!submission) {
        goTo(result.payment_result.redirect_url);
        return;
      }
      const outcome = await submission.complete({ ...result, order_key: order.order_key });
      if (outcome.ok) {
        goTo(outcome.redirect);
        return;
      }
      // The order is still this page's to pay: show it as it is now, and try again from here.
      failWith(outcome.message, true);
      void queryClient.invalidateQueries({ queryKey: orderQuery });
    } catch (caught) {
      const refusal = submission?.refusal(caught);
      if (refusal) failWith(refusal.message, true);
      else failWith(caught instanceof ApiError ? caught.message : NETWORK_ERROR_MESSAGE, false);
    }
  };

  const working = phase !== 'idle';
  const label = changing ? 'Change payment method' : chosen?.order_button_text || 'Pay for order';
  return (
    <form ref={formRef} method="post" id="order_review" className={styles.payForm} onSubmit={submit} noValidate aria-busy={working}>
      <OrderDetails order={order} heading="Order summary" showAddresses={false} />
      {error && (
        <div ref={noticeRef} className="woocommerce-notices-wrapper">
          <Notice tone="error">{error}</Notice>
        </div>
      )}
      <div className={styles.payBox}>
        <h2 className={styles.heading}>Payment method</h2>
        <PaymentMethods
          gateways={gateways}
          selected={method}
          onSelect={setMethod}
          disabled={working}
          renderBox={
            payments
              ? (gateway, selected) =>
                  payments.renderBox({
                    gatewayId: gateway.id,
                    selected,
                    billing: order.billing_address,
                    amount: changing ? 0 : Number(order.totals.total),
                    createAccount: false,
                    disabled: working,
                    onSubmission,
                  })
              : undefined
          }
        />
        <Button type="submit" size="lg" block id="place_order" disabled={!method} aria-busy={working}>
          {working && <Spinner size={18} />}
          {label}
        </Button>
      </div>
      <BlockingOverlay active={working} message={paying ? BUSY_MESSAGE : undefined} />
    </form>
  );
}

export function OrderPay({
  orderId,
  orderKey,
  payments,
  changing = false,
}: {
  orderId: string;
  orderKey: string;
  /** The card gateway's part, when the shop has one. */
  payments?: PaymentBinding;
  /** Changing the order's payment method (`change_payment_method` in the address). */
  changing?: boolean;
}) {
  const { data: order, error, isPending } = useOrder(orderId, orderKey);
  if (!orderKey || error) return <Notice tone="error">{error?.message || INVALID_ORDER}</Notice>;
  if (isPending) return <p className={styles.muted} aria-busy="true">Loading your order…</p>;
  if (!order.needs_payment && !changing) {
    return (
      <Notice tone="error">
        This order’s status is “{order.status_label}”—it cannot be paid for. Please contact us if you need assistance.
      </Notice>
    );
  }
  return <PayForm order={order} payments={payments} changing={changing} />;
}

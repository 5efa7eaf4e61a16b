// /my-account/add-payment-method: the `add_payment_method` form. The card's Payment
// Element in setup mode; sending it creates the payment method, has the shop create and
// confirm a setup intent (confirmed here when the card asks), then goes back to the
// saved methods with "Payment method successfully added."
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { PaymentMethods, raiseCheckoutError } from '@/components/payment/payment-methods';
import { BlockingOverlay, BUSY_MESSAGE } from '@/components/ui/blocking-overlay';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { settings } from '@/config/settings';
import { leavePage } from '@/lib/leave-page';
import { NOTICE_SCROLL, scrollToElement } from '@/lib/scroll';
import type { PaymentSubmission } from '@/types/payment-binding';
import { usePageSettings } from '../api/get-page-settings';
import { savedPaymentMethodsQueryKey } from '../api/get-saved-payment-methods';
import { methodTypeOf } from '../lib/method-rules';
import { PaymentBox } from './payment-box';
import styles from './saved-payment-methods.module.css';

export const METHOD_ADDED = 'Payment method successfully added.';
export const CANNOT_ADD = 'New payment methods can only be added during checkout. Please contact us if you require assistance.';

const SCOPE = { context: 'add-payment-method' } as const;

export function AddPaymentMethodForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: pageSettings, error: settingsError, isPending } = usePageSettings(SCOPE);
  const gateways = settings.checkout.gateways.filter((gateway) => methodTypeOf(gateway.id) !== null && pageSettings?.paymentMethodsConfig?.[methodTypeOf(gateway.id)!]?.isReusable !== false);
  const [method, setMethod] = useState(() => gateways[0]?.id ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [scrollRequest, setScrollRequest] = useState(0);
  const running = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const submissions = useRef(new Map<string, PaymentSubmission>());
  const onSubmission = useCallback((gatewayId: string, submission: PaymentSubmission | null) => {
    if (submission) submissions.current.set(gatewayId, submission);
    else submissions.current.delete(gatewayId);
  }, []);

  // Errors show at the top of the account's content area, brought into view.
  useEffect(() => {
    if (scrollRequest > 0 && noticeRef.current) scrollToElement(noticeRef.current, NOTICE_SCROLL);
  }, [scrollRequest]);

  if (settingsError) return <Notice tone="error">{settingsError.message}</Notice>;
  if (isPending) return <p className={styles.muted} aria-busy="true">Loading…</p>;
  if (!pageSettings.enabled || gateways.length === 0) return <Notice tone="info">{CANNOT_ADD}</Notice>;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (running.current) return;
    const submission = submissions.current.get(method);
    if (!submission) return;
    running.current = true;
    setBusy(true);
    setError(null);
    const outcome = await submission.save();
    if (outcome.ok) {
      // The list the shopper goes back to has a new method.
      queryClient.removeQueries({ queryKey: savedPaymentMethodsQueryKey() });
      const target = new URL(outcome.redirect, window.location.href);
      if (target.origin === window.location.origin) navigate(target.pathname + target.search, { state: { notice: METHOD_ADDED } });
      else leavePage(target.href);
      return;
    }
    running.current = false;
    setBusy(false);
    if (outcome.message) {
      setError(outcome.message);
      setScrollRequest((count) => count + 1);
    }
    raiseCheckoutError(formRef.current, outcome.message);
  };

  return (
    <form ref={formRef} id="add_payment_method" method="post" className={styles.form} onSubmit={submit} noValidate aria-busy={busy}>
      {error && (
        <div ref={noticeRef} className="woocommerce-notices-wrapper">
          <Notice tone="error">{error}</Notice>
        </div>
      )}
      <div id="payment" className="woocommerce-Payment">
        <PaymentMethods
          gateways={gateways}
          selected={method}
          onSelect={setMethod}
          disabled={busy}
          renderBox={(gateway, selected) => (
            <PaymentBox
              pageSettings={pageSettings}
              page="add-payment-method"
              gatewayId={gateway.id}
              selected={selected}
              billing={{}}
              amount={0}
              createAccount={false}
              disabled={busy}
              onSubmission={onSubmission}
            />
          )}
        />
      </div>
      <div>
        <Button type="submit" id="place_order" size="lg" disabled={!method} aria-busy={busy}>
          {busy && <Spinner size={18} />}
          Add payment method
        </Button>
      </div>
      <BlockingOverlay active={busy} message={BUSY_MESSAGE} />
    </form>
  );
}

// "Have a coupon? Click here to enter your code": the link slides the coupon form open
// and shut (400 ms). A refused code shows its message under the input, which is marked
// invalid; an accepted one slides the form away (the page shows the success notice).
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Collapsible } from '@/components/ui/collapsible';
import { TextInput } from '@/components/ui/form-field';
import { Icon } from '@/components/ui/icon';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, NETWORK_ERROR_MESSAGE } from '@/lib/api-client';
import type { CouponOutcome } from '../api/apply-coupon';
import styles from './checkout.module.css';

export const COUPON_SLIDE_MS = 400;

export function CouponToggle({ onApply }: { onApply: (code: string) => Promise<CouponOutcome> }) {
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const errorId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const outcome = await onApply(code.trim());
      if (outcome.ok) {
        setOpen(false);
        setCode('');
      } else {
        setError(outcome.message);
        input.current?.focus();
      }
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : NETWORK_ERROR_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={`woocommerce-form-coupon-toggle ${styles.toggleBlock}`}>
      <div className={`woocommerce-info ${styles.toggleNotice}`}>
        <Icon name="tag" size={18} />
        <span>
          Have a coupon?{' '}
          <a
            href="#coupon_code"
            className="showcoupon"
            aria-expanded={open}
            aria-controls="checkout-coupon"
            onClick={(event) => {
              event.preventDefault();
              setOpen((value) => !value);
            }}
          >
            Click here to enter your code
          </a>
        </span>
      </div>
      <Collapsible open={open} duration={COUPON_SLIDE_MS} id="checkout-coupon" onOpened={() => input.current?.focus()}>
        <form method="post" className={`checkout_coupon woocommerce-form-coupon ${styles.couponForm}`} onSubmit={submit} noValidate>
          <p className={styles.couponIntro}>If you have a coupon code, please apply it below.</p>
          <div className={styles.couponRow}>
            <p className={`form-row form-row-first ${styles.couponField} ${error ? 'woocommerce-invalid' : ''}`}>
              <label htmlFor="coupon_code" className="visually-hidden">
                Coupon:
              </label>
              <TextInput
                ref={input}
                id="coupon_code"
                name="coupon_code"
                placeholder="Coupon code"
                value={code}
                autoComplete="off"
                onChange={(event) => {
                  setCode(event.target.value);
                  setError(null);
                }}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorId : undefined}
              />
            </p>
            <Button type="submit" variant="secondary" name="apply_coupon" value="Apply coupon" disabled={busy || code.trim() === ''} aria-busy={busy}>
              {busy && <Spinner />}
              Apply coupon
            </Button>
          </div>
          {error && (
            <p id={errorId} className={`coupon-error-notice ${styles.couponError}`} role="alert">
              {error}
            </p>
          )}
        </form>
      </Collapsible>
    </div>
  );
}

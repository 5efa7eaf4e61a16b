// The list of payment methods with a radio each; the chosen method's description box
// slides open (230 ms) and the others close. Used by the checkout and the order-pay
// page; the gateways come from the page settings. A gateway with a payment form (the
// card) has it drawn in its box by `renderBox`.
import type { ReactNode } from 'react';
import { Collapsible } from '@/components/ui/collapsible';
import { SafeHtml } from '@/components/ui/safe-html';
import type { PaymentGateway } from '@/config/settings';
import styles from './payment-methods.module.css';

export const PAYMENT_BOX_SLIDE_MS = 230;

/**
 * Raised on a payment form (bubbling to the document) when a payment fails, as the
 * original shop's scripts listen for it.
 */
export function raiseCheckoutError(form: HTMLFormElement | null, message: string): void {
  form?.dispatchEvent(new CustomEvent('checkout_error', { bubbles: true, detail: { message } }));
}

export function PaymentMethods({
  gateways,
  selected,
  onSelect,
  disabled = false,
  renderBox,
}: {
  gateways: PaymentGateway[];
  selected: string;
  onSelect: (id: string) => void;
  disabled?: boolean;
  /** The payment form under a gateway's description, or null for gateways without one. */
  renderBox?: (gateway: PaymentGateway, selected: boolean) => ReactNode;
}) {
  if (gateways.length === 0) {
    return (
      <p className={`woocommerce-notice woocommerce-info ${styles.none}`}>
        Sorry, it seems that there are no available payment methods. Please contact us if you require assistance or wish to make alternate arrangements.
      </p>
    );
  }
  return (
    <fieldset className={styles.fieldset}>
      <legend className="visually-hidden">Payment method</legend>
      <ul className={`wc_payment_methods payment_methods methods ${styles.methods}`}>
        {gateways.map((gateway) => {
          const checked = gateway.id === selected;
          const box = renderBox?.(gateway, checked) ?? null;
          return (
            <li key={gateway.id} className={`wc_payment_method payment_method_${gateway.id} ${styles.method}`} data-selected={checked}>
              <label className={styles.choice} htmlFor={`payment_method_${gateway.id}`}>
                <input
                  id={`payment_method_${gateway.id}`}
                  type="radio"
                  className={`input-radio ${styles.radio}`}
                  name="payment_method"
                  value={gateway.id}
                  checked={checked}
                  disabled={disabled}
                  onChange={() => onSelect(gateway.id)}
                />
                <span className={styles.title}>{gateway.title}</span>
              </label>
              {(gateway.description || box) && (
                <Collapsible open={checked} duration={PAYMENT_BOX_SLIDE_MS} className={`payment_box payment_method_${gateway.id}`}>
                  {gateway.description && <SafeHtml html={gateway.description} className={styles.description} />}
                  {box}
                </Collapsible>
              )}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

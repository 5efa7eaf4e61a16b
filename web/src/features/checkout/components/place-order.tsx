// The bottom of "Your order": the payment methods, the privacy text, the terms (a link
// that unfolds them in place and the required checkbox), the newsletter box when the
// shop offers it, and the place-order button, whose text follows the chosen gateway.
import { useState, type ReactNode } from 'react';
import { PaymentMethods } from '@/components/payment/payment-methods';
import { Button } from '@/components/ui/button';
import { Collapsible } from '@/components/ui/collapsible';
import { Checkbox, FormRow, RequiredMark, statusAria } from '@/components/ui/form-field';
import { SafeHtml } from '@/components/ui/safe-html';
import { Spinner } from '@/components/ui/spinner';
import { settings, type PaymentGateway } from '@/config/settings';
import type { FieldStatus } from '@/types/field-status';
import styles from './checkout.module.css';

export const TERMS_SLIDE_MS = 400;

export function placeOrderText(gateway: PaymentGateway | undefined): string {
  return gateway?.order_button_text || 'Place order';
}

export function PlaceOrder({
  gateways,
  paymentMethod,
  paymentNeeded,
  terms,
  termsStatus,
  processing,
  onChoosePaymentMethod,
  onTerms,
  newsletter,
  renderPaymentBox,
}: {
  gateways: PaymentGateway[];
  paymentMethod: string;
  paymentNeeded: boolean;
  terms: boolean;
  termsStatus: FieldStatus | undefined;
  processing: boolean;
  onChoosePaymentMethod: (id: string) => void;
  onTerms: (accepted: boolean) => void;
  /** The newsletter box, when the shop offers it. */
  newsletter?: { checked: boolean; onChange: (subscribe: boolean) => void };
  /** A gateway's payment form (the card's) in its box. */
  renderPaymentBox?: (gateway: PaymentGateway, selected: boolean) => ReactNode;
}) {
  const [termsOpen, setTermsOpen] = useState(false);
  const termsSettings = settings.checkout.terms;
  const chosen = gateways.find((gateway) => gateway.id === paymentMethod);
  const label = placeOrderText(paymentNeeded ? chosen : undefined);

  return (
    <div id="payment" className={`woocommerce-checkout-payment ${styles.payment}`}>
      {paymentNeeded && (
        <>
          <h3 className={styles.subheading}>Payment method</h3>
          <PaymentMethods gateways={gateways} selected={paymentMethod} onSelect={onChoosePaymentMethod} disabled={processing} renderBox={renderPaymentBox} />
        </>
      )}
      <div className={`form-row place-order ${styles.placeOrder}`}>
        <div className={`woocommerce-terms-and-conditions-wrapper ${styles.termsWrapper}`}>
          {settings.checkout.privacy_text && (
            <SafeHtml html={settings.checkout.privacy_text} className={`woocommerce-privacy-policy-text ${styles.privacy}`} />
          )}
          {termsSettings && (
            <>
              <Collapsible open={termsOpen} duration={TERMS_SLIDE_MS} id="checkout-terms" className="woocommerce-terms-and-conditions">
                <SafeHtml html={termsSettings.text} className={styles.termsText} />
              </Collapsible>
              <FormRow fieldId="terms" required status={termsStatus} className={styles.termsRow}>
                <label className={`woocommerce-form__label woocommerce-form__label-for-checkbox checkbox ${styles.termsLabel}`}>
                  <input
                    type="checkbox"
                    className={`woocommerce-form__input woocommerce-form__input-checkbox input-checkbox ${styles.termsCheckbox}`}
                    name="terms"
                    id="terms"
                    checked={terms}
                    onChange={(event) => onTerms(event.target.checked)}
                    {...statusAria('terms', termsStatus)}
                  />
                  <span className="woocommerce-terms-and-conditions-checkbox-text">
                    I have read and agree to the website{' '}
                    <a
                      href={termsSettings.page_url || '#checkout-terms'}
                      className="woocommerce-terms-and-conditions-link"
                      aria-expanded={termsOpen}
                      aria-controls="checkout-terms"
                      onClick={(event) => {
                        // The terms unfold in place instead of leaving the checkout.
                        event.preventDefault();
                        setTermsOpen((value) => !value);
                      }}
                    >
                      terms and conditions
                    </a>
                    <RequiredMark required />
                  </span>
                </label>
                <input type="hidden" name="terms-field" value="1" />
              </FormRow>
            </>
          )}
          {newsletter && (
            <p className={`form-row ${styles.newsletterRow}`} id="newsletter_signup_field">
              <Checkbox
                id="newsletter_signup"
                name="newsletter_signup"
                value="1"
                checked={newsletter.checked}
                onChange={(event) => newsletter.onChange(event.target.checked)}
                label="Sign me up for the newsletter"
              />
            </p>
          )}
        </div>
        <Button
          type="submit"
          size="lg"
          block
          className={`alt ${styles.placeOrderButton}`}
          name="woocommerce_checkout_place_order"
          id="place_order"
          value={label}
          data-value={label}
          aria-busy={processing}
        >
          {processing && <Spinner size={18} />}
          {label}
        </Button>
      </div>
    </div>
  );
}

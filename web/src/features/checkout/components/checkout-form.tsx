// The checkout form: billing details, the optional shipping address, account creation,
// order notes, and "Your order" with the payment methods and the place-order button.
// A failed order shows its notices at the top; the whole form is blocked while the
// order is being placed. With a newsletter sign-up from the app, a box above the
// place-order button offers it.
import { useState, type ReactNode } from 'react';
import { AddressFields } from '@/components/address/address-fields';
import { BlockingOverlay } from '@/components/ui/blocking-overlay';
import { Collapsible } from '@/components/ui/collapsible';
import { Checkbox, FieldGrid, FormRow, TextArea } from '@/components/ui/form-field';
import { Icon } from '@/components/ui/icon';
import { Notice } from '@/components/ui/notice';
import { settings } from '@/config/settings';
import type { AddressLocale } from '@/lib/address-locale';
import type { CartBinding } from '@/types/cart-binding';
import type { PaymentBinding } from '@/types/payment-binding';
import type { Cart } from '@/types/store-api';
import { useCheckoutForm } from '../hooks/use-checkout-form';
import type { NewsletterSignUp } from '../lib/checkout-form';
import { AccountFields } from './account-fields';
import { CheckoutErrors } from './checkout-errors';
import { CouponToggle } from './coupon-toggle';
import { LoginToggle } from './login-toggle';
import { OrderReview } from './order-review';
import { PlaceOrder } from './place-order';
import styles from './checkout.module.css';
import { HydrateApart } from '@/components/hydrate-apart';

export const SHIPPING_SLIDE_MS = 400;

/** The notices above the form lead with an icon, as the coupon and login prompts beside them do. */
const NOTICE_ICONS = { success: 'check', error: 'alert', info: 'info' } as const;

export function CheckoutForm({
  binding,
  cart,
  locale,
  loginForm,
  onPlaced,
  payments,
  expressCheckout,
  newsletterSignUp,
}: {
  binding: CartBinding;
  cart: Cart;
  locale: AddressLocale;
  loginForm: ReactNode;
  onPlaced: () => void;
  /** The card gateway's part, when the shop has one. */
  payments?: PaymentBinding;
  /** The express checkout button ("Express checkout", then "— or —" before the form's fields). */
  expressCheckout?: ReactNode;
  /** The newsletter's sign-up, sent once the order is placed if the shopper ticks its box. */
  newsletterSignUp?: NewsletterSignUp;
}) {
  const form = useCheckoutForm(binding, locale, onPlaced, payments, newsletterSignUp);
  const { values, statuses } = form;
  // The shipping address's fields are drawn when the shopper first asks for them and
  // kept from then on: until then they are not needed, and their country select alone
  // holds some 250 options for the page to parse, hydrate and re-render.
  const [shippingOpened, setShippingOpened] = useState(values.shipToDifferentAddress);
  if (values.shipToDifferentAddress && !shippingOpened) setShippingOpened(true);
  const shippingShown = shippingOpened || values.shipToDifferentAddress;
  const loggedIn = settings.account.logged_in;
  const texts = { requiredText: locale.i18n_required_text, optionalText: locale.i18n_optional_text };

  return (
    <>
      {(form.pageNotice || !loggedIn || settings.checkout.coupons_enabled) && (
        <div className={styles.toggles}>
          {form.pageNotice && (
            <Notice
              key={form.pageNotice.id}
              ref={form.pageNoticeRef}
              tone={form.pageNotice.tone}
              icon={NOTICE_ICONS[form.pageNotice.tone]}
              onDismiss={form.dismissPageNotice}
            >
              {form.pageNotice.text}
            </Notice>
          )}
          {!loggedIn && <LoginToggle>{loginForm}</LoginToggle>}
          {settings.checkout.coupons_enabled && <CouponToggle onApply={form.submitCoupon} />}
        </div>
      )}

      <form
        ref={form.formRef}
        method="post"
        name="checkout"
        className={`checkout woocommerce-checkout ${styles.form} ${form.processing ? 'processing' : ''}`}
        onSubmit={form.submit}
        noValidate
        aria-busy={form.processing}
      >
        {expressCheckout}
        <CheckoutErrors notices={form.submitNotices} groupRef={form.noticeGroupRef} />

        <div className={styles.columns}>
          <div id="customer_details" className={styles.details}>
            <section className={`woocommerce-billing-fields ${styles.card}`} aria-labelledby="billing-heading">
              <h2 id="billing-heading" className={styles.sectionTitle}>
                Billing details
              </h2>
              <HydrateApart name="checkout-billing">
                <AddressFields fields={form.billingFields} values={values.billing} statuses={statuses} events={form.billingEvents} {...texts} />
              </HydrateApart>
              <AccountFields
                mode={form.accountMode}
                createAccount={values.createAccount}
                password={values.accountPassword}
                status={statuses.account_password}
                onCreateAccount={form.setCreateAccount}
                onPasswordInput={form.accountPasswordEvents.onInput}
                onPasswordBlur={form.accountPasswordEvents.onBlur}
              />
            </section>

            {cart.needs_shipping && (
              <HydrateApart name="checkout-shipping">
                <section className={`woocommerce-shipping-fields ${styles.card}`}>
                  <h2 id="ship-to-different-address" className={styles.shipToggle}>
                    <Checkbox
                      id="ship-to-different-address-checkbox"
                      name="ship_to_different_address"
                      value="1"
                      checked={values.shipToDifferentAddress}
                      onChange={(event) => form.setShipToDifferentAddress(event.target.checked)}
                      label="Ship to a different address?"
                    />
                  </h2>
                  <Collapsible open={values.shipToDifferentAddress} duration={SHIPPING_SLIDE_MS} className="shipping_address">
                    <div className={styles.shippingFields}>
                      {shippingShown && <AddressFields fields={form.shippingFields} values={values.shipping} statuses={statuses} events={form.shippingEvents} {...texts} />}
                    </div>
                  </Collapsible>
                </section>
              </HydrateApart>
            )}

            {settings.checkout.order_notes && (
              <section className={`woocommerce-additional-fields ${styles.card}`} aria-labelledby="additional-heading">
                <h2 id="additional-heading" className={styles.sectionTitle}>
                  Additional information
                </h2>
                <FieldGrid>
                  <FormRow fieldId="order_comments" label="Order notes" className="notes" {...texts}>
                    <TextArea
                      id="order_comments"
                      name="order_comments"
                      placeholder="Notes about your order, e.g. special notes for delivery."
                      rows={3}
                      value={values.orderComments}
                      onChange={(event) => form.setOrderComments(event.target.value)}
                    />
                  </FormRow>
                </FieldGrid>
              </section>
            )}
          </div>

          <aside className={styles.summary} aria-labelledby="order_review_heading">
            <div className={styles.summaryCard}>
              <h2 id="order_review_heading" className={styles.sectionTitle}>
                Your order
              </h2>
              {form.refreshError && (
                <div className={styles.refreshError}>
                  <Notice tone="error">{form.refreshError}</Notice>
                </div>
              )}
              <HydrateApart name="checkout-review">
                <OrderReview
                  cart={cart}
                  shippingChoices={values.shippingChoices}
                  refreshing={form.refreshing}
                  stale={form.reviewStale}
                  disabled={form.processing}
                  onChooseShippingRate={form.chooseShippingRate}
                  onRemoveCoupon={(code) => void form.dropCoupon(code)}
                />
              </HydrateApart>
              <HydrateApart name="checkout-payment">
                <PlaceOrder
                  gateways={form.gateways}
                  paymentMethod={values.paymentMethod}
                  paymentNeeded={form.paymentNeeded}
                  terms={values.terms}
                  termsStatus={statuses.terms}
                  processing={form.processing}
                  onChoosePaymentMethod={form.choosePaymentMethod}
                  onTerms={form.setTerms}
                  newsletter={form.newsletterOffered ? { checked: values.newsletter, onChange: form.setNewsletter } : undefined}
                  renderPaymentBox={form.renderPaymentBox}
                />
              </HydrateApart>
              <p className={styles.secure}>
                <Icon name="lock" size={16} />
                Your details are sent securely.
              </p>
            </div>
          </aside>
        </div>
        <BlockingOverlay active={form.processing} message={form.busyMessage} />
      </form>
    </>
  );
}

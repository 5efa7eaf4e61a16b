// The checkout page: waits for the cart and the address rules, shows the empty-cart
// message when there is nothing to buy, the "log in first" message when the shop
// sells to customers only, and otherwise the checkout form.
import { useRef, useState, type ReactNode } from 'react';
import { ButtonLink } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { Notice } from '@/components/ui/notice';
import { paths } from '@/config/paths';
import { settings } from '@/config/settings';
import { useAddressLocale } from '@/lib/address-locale';
import { htmlToText } from '@/lib/html-text';
import type { CartBinding } from '@/types/cart-binding';
import type { PaymentBinding } from '@/types/payment-binding';
import type { NewsletterSignUp } from '../lib/checkout-form';
import { CheckoutForm } from './checkout-form';
import { LoginToggle } from './login-toggle';
import styles from './checkout.module.css';

export const EMPTY_CART = 'Your cart is currently empty.';
export const MUST_LOG_IN = 'You must be logged in to checkout.';

export function CheckoutView({
  binding,
  loginForm,
  payments,
  paymentStatus,
  expressCheckout,
  newsletterSignUp,
}: {
  binding: CartBinding;
  loginForm: ReactNode;
  payments?: PaymentBinding;
  /** What the card gateway shows of a payment that came back to the page (its address's fragment). */
  paymentStatus?: ReactNode;
  /** The express checkout button, at the top of the form. */
  expressCheckout?: ReactNode;
  /** The newsletter's sign-up: offered as a box in the form, sent once the order is placed. */
  newsletterSignUp?: NewsletterSignUp;
}) {
  const locale = useAddressLocale();
  // Once the order is placed the cart empties while the order page loads; the form
  // stays up (blocked) with the order as it was rather than flashing "empty cart".
  const [placed, setPlaced] = useState(false);
  const lastFilled = useRef(binding.cart);
  if (binding.cart && binding.cart.items.length > 0) lastFilled.current = binding.cart;
  const cart = placed ? lastFilled.current : binding.cart;
  const { error } = binding;
  // The form starts from the customer's saved addresses, which only a fresh cart carries.
  const isPending = binding.isPending || (!binding.isFresh && !placed && !error);
  const mustLogIn = !settings.account.logged_in && !settings.checkout.guest_checkout && !settings.checkout.signup_at_checkout;

  let body: ReactNode;
  if (error && !cart) body = <Notice tone="error">{error.message}</Notice>;
  else if (isPending || !cart) body = <p className={styles.loading} aria-busy="true">Loading your order…</p>;
  else if (cart.items.length === 0)
    body = (
      <div className={`cart-empty ${styles.empty}`}>
        <Icon name="cart" size={40} />
        <p className={styles.emptyText}>{EMPTY_CART}</p>
        <ButtonLink to={paths.shop()}>Return to shop</ButtonLink>
      </div>
    );
  else if (mustLogIn)
    body = (
      <div className={styles.toggles}>
        <LoginToggle>{loginForm}</LoginToggle>
        <Notice tone="info">{MUST_LOG_IN}</Notice>
      </div>
    );
  else if (locale.error && !locale.data)
    body = (
      <Notice tone="error">
        {locale.error.message} <button type="button" className={styles.linkButton} onClick={() => void locale.refetch()}>Try again</button>
      </Notice>
    );
  else if (!locale.data) body = <p className={styles.loading} aria-busy="true">Loading your order…</p>;
  else body = <CheckoutForm binding={binding} cart={cart} locale={locale.data} loginForm={loginForm} onPlaced={() => setPlaced(true)} payments={payments} expressCheckout={expressCheckout} newsletterSignUp={newsletterSignUp} />;

  return (
    <div className={`container ${styles.page}`}>
      <h1 className={styles.title}>Checkout</h1>
      {paymentStatus}
      {cart && cart.errors.length > 0 && cart.items.length > 0 && (
        <div className={styles.toggles}>
          {cart.errors.map((cartError) => (
            <Notice key={cartError.code + cartError.message} tone="error">
              {htmlToText(cartError.message)}
            </Notice>
          ))}
        </div>
      )}
      {body}
    </div>
  );
}

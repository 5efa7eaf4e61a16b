// /checkout: the checkout page. Its login form is the account feature's, its card
// payments and express checkout the payments feature's, and its newsletter box the
// newsletter feature's sign-up, composed here.
import { CheckoutView } from '@/features/checkout/components/checkout-view';
import type { NewsletterSubscriber } from '@/features/checkout/lib/checkout-form';
import { LoginForm } from '@/features/customers/components/login-form';
import { signUpForNewsletter } from '@/features/newsletter/api/sign-up-for-newsletter';
import { PaymentReturnStatus } from '@/features/payments/components/payment-return-status';
import { usePaymentReturn } from '@/features/payments/hooks/use-payment-return';
import { paths } from '@/config/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useCartBinding } from '../cart-binding';
import { CartExpressCheckout } from '../express-checkout';
import { usePaymentBinding } from '../payment-binding';

const LOGIN_INTRO = 'If you have shopped with us before, please enter your details below. If you are a new customer, please proceed to the Billing section.';

const CHECKOUT_SCOPE = { context: 'checkout' } as const;

/**
 * The newsletter box: ticking it is the consent. Sent in the background as the page
 * moves on to the order (kept alive should the shopper leave the shop to pay); its
 * reply, whatever it is, is no concern of the order's.
 */
function signUpAtCheckout({ email, name }: NewsletterSubscriber) {
  void signUpForNewsletter({ email, name, consent: true, source: 'checkout' }, { keepalive: true });
}

export default function CheckoutRoute() {
  useDocumentTitle('Checkout');
  const binding = useCartBinding();
  const payments = usePaymentBinding(CHECKOUT_SCOPE);
  // A payment that comes back to the page in its address: the order it paid emptied the cart.
  const returning = usePaymentReturn(CHECKOUT_SCOPE, { enabled: payments !== undefined, onLeave: () => void binding.refresh() });
  return (
    <CheckoutView
      binding={binding}
      loginForm={<LoginForm redirectTo={paths.checkout()} intro={LOGIN_INTRO} sideBySide />}
      payments={payments}
      paymentStatus={<PaymentReturnStatus state={returning} />}
      expressCheckout={<CartExpressCheckout context="checkout" cart={binding.cart} onCartChanged={() => void binding.refresh()} />}
      newsletterSignUp={signUpAtCheckout}
    />
  );
}

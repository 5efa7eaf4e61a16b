// The card box's code is fetched only where a card can be paid: the payment pages'
// routes wait for `loadPaymentBox` (so their first render, hydration included, has
// it), and the server bundle hands it over with `providePaymentBox`. A shop without a
// card gateway never fetches it. Kept apart from the binding so the router, which every
// page loads, carries no more of payments than this.
import { settings } from '@/config/settings';
import type { PaymentBox } from '@/features/payments/components/payment-box';

let paymentBox: typeof PaymentBox | null = null;

export function providePaymentBox(box: typeof PaymentBox) {
  paymentBox = box;
}

export function loadedPaymentBox(): typeof PaymentBox | null {
  return paymentBox;
}

/** Whether the shop offers one of the provider's methods (gateway `stripe` or
 *  `stripe_{type}`; the method rules know which types those are, and are not needed
 *  to tell that much). */
const takesCards = () => settings.checkout.gateways.some((gateway) => gateway.id === 'stripe' || gateway.id.startsWith('stripe_'));

export function loadPaymentBox(): Promise<void> {
  if (paymentBox || !takesCards()) return Promise.resolve();
  return import('@/features/payments/components/payment-box').then((module) => providePaymentBox(module.PaymentBox));
}

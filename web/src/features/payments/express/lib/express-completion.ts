// After an express order is placed: paying it as the checkout does. On the shopper's
// own cart that is the checkout's own completion (completePayment: a 3-D Secure
// fragment handled in place, else the thank-you page, or the order-pay page after a
// failed confirmation). An order of the product page's own cart is the button's: its
// 3-D Secure confirmation is reported with that cart's token (the fragment's nonce is
// bound to it), and a failure is shown on the product page.
import type { Stripe } from '@stripe/stripe-js';
import type { PaymentOutcome } from '@/types/payment-binding';
import type { PaymentPageSettings } from '../../api/get-page-settings';
import { parseReturnFragment } from '../../lib/confirm-fragment';
import { looksLikeReturnFragment } from '../../lib/fragment-marker';
import { completePayment, retryPageOf } from '../../lib/payment-flow';
import { PAYMENT_FAILED_MESSAGE } from '../../lib/payment-errors';
import { updateOrderStatus, type ExpressHttp, type PlacedExpressOrder } from '../api/express-calls';
import { expressErrorMessage } from './express-flow';

/**
 * What the checkout's completion reads of the page settings: the calls' address, the
 * failed-order nonce (a failed confirmation is reported) and the fallback message.
 */
export function completionSettings(http: ExpressHttp): PaymentPageSettings {
  return {
    ajax_url: http.params.ajax_url,
    updateFailedOrderNonce: http.params.nonce.update_failed_order ?? '',
    genericErrorMessage: PAYMENT_FAILED_MESSAGE,
  } as unknown as PaymentPageSettings;
}

const failed = (message: string): PaymentOutcome => ({ ok: false, message, redirect: null });

/** 3-D Secure for an order of the product page's own cart. */
async function confirmOnButtonCart(http: ExpressHttp, stripe: Pick<Stripe, 'handleNextAction'>, redirect: string): Promise<PaymentOutcome> {
  const fragment = parseReturnFragment(redirect);
  if (!fragment || fragment.kind !== 'confirm' || fragment.intentKind !== 'payment_intent') return failed(PAYMENT_FAILED_MESSAGE);
  try {
    const result = await stripe.handleNextAction({ clientSecret: fragment.clientSecret });
    if (result.error) return failed(expressErrorMessage(result.error));
    const intent = result.paymentIntent;
    if (intent && !['succeeded', 'processing', 'requires_capture'].includes(intent.status)) {
      return failed(expressErrorMessage(intent.last_payment_error ?? { message: PAYMENT_FAILED_MESSAGE }));
    }
    const returnUrl = await updateOrderStatus(http, { orderId: fragment.orderId, intentId: intent?.id ?? fragment.intentId, nonce: fragment.nonce });
    return { ok: true, redirect: returnUrl };
  } catch (error) {
    return failed(expressErrorMessage(error));
  }
}

export function completeExpressPayment(http: ExpressHttp, stripe: Stripe, placed: PlacedExpressOrder): Promise<PaymentOutcome> {
  const redirect = placed.payment_result.redirect_url;
  if (!http.session.ownCart && looksLikeReturnFragment(redirect)) return confirmOnButtonCart(http, stripe, redirect);
  return completePayment({ pageSettings: completionSettings(http), page: 'checkout', stripe }, placed, {
    provider: () => Promise.resolve(stripe),
    paymentMethodToSave: '',
    // A confirmation that fails leaves the shopper's order to be paid on its own page, as at checkout.
    retryPage: http.session.ownCart ? retryPageOf(placed, 'checkout') : null,
  });
}

// wc_stripe_create_payment_intent: a payment intent for an order (the order-pay page's
// methods that are not deferred), with its client secret.
import { dataOf, paymentAjaxUrl, postPaymentCall, type AjaxAnswer } from './payment-ajax';
import type { PaymentPageSettings } from './get-page-settings';
import type { IntentSecret } from './init-setup-intent';

export async function createPaymentIntent(
  pageSettings: Pick<PaymentPageSettings, 'ajax_url' | 'createPaymentIntentNonce'>,
  orderId: number,
  paymentMethodType: string,
): Promise<IntentSecret> {
  const answer = await postPaymentCall<AjaxAnswer<IntentSecret>>(paymentAjaxUrl(pageSettings, 'create_payment_intent'), {
    stripe_order_id: orderId,
    payment_method_type: paymentMethodType,
    _ajax_nonce: pageSettings.createPaymentIntentNonce,
  });
  return dataOf(answer);
}

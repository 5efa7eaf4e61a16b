// wc_stripe_init_setup_intent: a setup intent for the chosen method type, to confirm in
// the page (its client secret) when a method is saved without a payment.
import { dataOf, paymentAjaxUrl, postPaymentCall, type AjaxAnswer } from './payment-ajax';
import type { PaymentPageSettings } from './get-page-settings';

export interface IntentSecret {
  id: string;
  client_secret: string;
}

export async function initSetupIntent(pageSettings: Pick<PaymentPageSettings, 'ajax_url' | 'createSetupIntentNonce'>, paymentMethodType: string): Promise<IntentSecret> {
  const answer = await postPaymentCall<AjaxAnswer<IntentSecret>>(paymentAjaxUrl(pageSettings, 'init_setup_intent'), {
    payment_method_type: paymentMethodType,
    _ajax_nonce: pageSettings.createSetupIntentNonce,
  });
  return dataOf(answer);
}

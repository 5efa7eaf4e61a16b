// wp_ajax action wc_stripe_create_and_confirm_setup_intent (logged-in shoppers): saves a
// new payment method through a setup intent, which may still need the shopper.
import { dataOf, postPaymentCall, type AjaxAnswer } from './payment-ajax';
import type { PaymentPageSettings } from './get-page-settings';

export interface ConfirmedSetupIntent {
  id: string;
  status: string;
  next_action: { type: string; redirect_to_url?: { url: string } } | null;
  payment_type: string;
  return_url: string;
  client_secret: string;
}

export interface SetupIntentRequest {
  paymentMethodId: string;
  paymentMethodType: string;
  /** Use the new method for every subscription of the shopper. */
  updateAllSubscriptions?: boolean;
}

export async function createAndConfirmSetupIntent(
  pageSettings: Pick<PaymentPageSettings, 'wp_ajax_url' | 'createAndConfirmSetupIntentNonce'>,
  request: SetupIntentRequest,
): Promise<ConfirmedSetupIntent> {
  const fields: Record<string, string> = {
    action: 'wc_stripe_create_and_confirm_setup_intent',
    'wc-stripe-payment-method': request.paymentMethodId,
    'wc-stripe-payment-type': request.paymentMethodType,
    _ajax_nonce: pageSettings.createAndConfirmSetupIntentNonce,
  };
  if (request.updateAllSubscriptions) fields.update_all_subscription_payment_methods = 'true';
  const answer = await postPaymentCall<AjaxAnswer<ConfirmedSetupIntent>>(pageSettings.wp_ajax_url, fields);
  return dataOf(answer);
}

// wc_stripe_update_payment_intent: ties a payment intent to its order (and to saving
// the method). Setup intents (seti_…) are never sent.
import { htmlToText } from '@/lib/html-text';
import { PaymentRequestError } from '../lib/payment-errors';
import { paymentAjaxUrl, postPaymentCall } from './payment-ajax';
import type { PaymentPageSettings } from './get-page-settings';

export interface PaymentIntentUpdate {
  orderId: number;
  intentId: string;
  savePaymentMethod: boolean;
  selectedType: string;
}

/** Resolves false when there was nothing to update (a setup intent). */
export async function updatePaymentIntent(
  pageSettings: Pick<PaymentPageSettings, 'ajax_url' | 'updatePaymentIntentNonce'>,
  update: PaymentIntentUpdate,
): Promise<boolean> {
  if (update.intentId.startsWith('seti_')) return false;
  const answer = await postPaymentCall<{ result?: string; messages?: string }>(paymentAjaxUrl(pageSettings, 'update_payment_intent'), {
    stripe_order_id: update.orderId,
    wc_payment_intent_id: update.intentId,
    save_payment_method: update.savePaymentMethod ? 'yes' : 'no',
    selected_upe_payment_type: update.selectedType,
    _ajax_nonce: pageSettings.updatePaymentIntentNonce,
  });
  if (answer?.result !== 'success') throw new PaymentRequestError(htmlToText(answer?.messages ?? ''));
  return true;
}

// wc_stripe_update_failed_order: tells the shop a confirmation failed in the page. Its
// own failure is ignored: the shopper is told about the payment, not about this call.
import { paymentAjaxUrl, postPaymentCall } from './payment-ajax';
import type { PaymentPageSettings } from './get-page-settings';

export async function updateFailedOrder(pageSettings: Pick<PaymentPageSettings, 'ajax_url' | 'updateFailedOrderNonce'>, intentId: string, orderId: number): Promise<void> {
  try {
    await postPaymentCall(paymentAjaxUrl(pageSettings, 'update_failed_order'), {
      intent_id: intentId,
      order_id: orderId,
      _ajax_nonce: pageSettings.updateFailedOrderNonce,
    });
  } catch {
    // Ignored on purpose (see above).
  }
}

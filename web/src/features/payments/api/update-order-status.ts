// wc_stripe_update_order_status, or wc_stripe_confirm_change_payment when the shopper is
// changing an order's payment method: tells the shop an intent was confirmed in the
// page, with the nonce that came with it; answers where to go next.
import { dataOf, paymentAjaxUrl, postPaymentCall, type AjaxAnswer } from './payment-ajax';
import type { PaymentPageSettings } from './get-page-settings';

export interface OrderStatusUpdate {
  orderId: number;
  intentId: string;
  /** The new payment method when the shopper asked to save it; empty otherwise. */
  paymentMethodId: string;
  nonce: string;
  changingPayment: boolean;
}

export async function updateOrderStatus(pageSettings: Pick<PaymentPageSettings, 'ajax_url'>, update: OrderStatusUpdate): Promise<string> {
  const name = update.changingPayment ? 'confirm_change_payment' : 'update_order_status';
  const answer = await postPaymentCall<AjaxAnswer<{ return_url: string }>>(paymentAjaxUrl(pageSettings, name), {
    order_id: update.orderId,
    intent_id: update.intentId,
    payment_method_id: update.paymentMethodId,
    _ajax_nonce: update.nonce,
  });
  return dataOf(answer).return_url;
}

// POST /?wc-ajax=apply_coupon and remove_coupon: the classic coupon calls. Both answer
// HTML notices; a refusal carries a woocommerce-error (or is-error) marker.
import { settings } from '@/config/settings';
import { NETWORK_ERROR_MESSAGE, wcAjaxText } from '@/lib/api-client';
import { isErrorHtml, parseNotices } from '../lib/notices';

export interface CouponOutcome {
  ok: boolean;
  /** The shop's message, as text. */
  message: string;
}

function outcomeOf({ ok, text }: { ok: boolean; text: string }, fallback: string): CouponOutcome {
  const failed = !ok || isErrorHtml(text);
  const notices = parseNotices(text, failed ? 'error' : 'success');
  // A refused nonce answers a bare "-1"; that is no message for a shopper.
  const message = notices.map((notice) => notice.text).join(' ');
  return { ok: !failed, message: message && message !== '-1' && message !== '0' ? message : failed ? NETWORK_ERROR_MESSAGE : fallback };
}

export async function applyCoupon(code: string, billingEmail: string): Promise<CouponOutcome> {
  const answer = await wcAjaxText('apply_coupon', {
    security: settings.checkout.nonces.apply_coupon,
    coupon_code: code,
    billing_email: billingEmail,
  });
  return outcomeOf(answer, 'Coupon code applied successfully.');
}

export async function removeCoupon(code: string): Promise<CouponOutcome> {
  const answer = await wcAjaxText('remove_coupon', { security: settings.checkout.nonces.remove_coupon, coupon: code });
  return outcomeOf(answer, 'Coupon has been removed.');
}

// POST /cart/apply-coupon: adds a coupon to the cart, answered with the repriced cart.
// A refused code answers the shop's reason as the error message.
import { storeApiPost } from '@/lib/api-client';
import type { Cart } from '@/types/store-api';

export interface CouponOutcome {
  ok: boolean;
  /** The shop's message, as text. */
  message: string;
}

export const COUPON_APPLIED = 'Coupon code applied successfully.';

export function applyCoupon(code: string): Promise<Cart> {
  return storeApiPost<Cart>('/cart/apply-coupon', { code });
}

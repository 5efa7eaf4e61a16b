// POST /cart/remove-coupon: takes a coupon off the cart, answered with the repriced cart.
import { storeApiPost } from '@/lib/api-client';
import type { Cart } from '@/types/store-api';

export const COUPON_REMOVED = 'Coupon has been removed.';

export function removeCoupon(code: string): Promise<Cart> {
  return storeApiPost<Cart>('/cart/remove-coupon', { code });
}

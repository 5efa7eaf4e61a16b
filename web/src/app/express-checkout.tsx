// The express checkout button of the cart and checkout pages (the payments feature's),
// for the shopper's cart: its amount follows the cart, and the cart is fetched again
// when an express payment changed it. Only the slot travels with these pages; the
// element and the provider's code load later, and only in a shop that offers it.
import { ExpressCheckoutSlot } from '@/features/payments/express/components/express-checkout-slot';
import type { Cart } from '@/types/store-api';

/** What the button's amount depends on: the lines, the coupons and the total. */
export function cartVersionOf(cart: Cart | undefined): string {
  if (!cart) return '';
  const lines = cart.items.map((item) => `${item.key}:${item.quantity}`).join(',');
  const coupons = cart.coupons.map((coupon) => coupon.code).join(',');
  return `${lines}|${coupons}|${cart.totals.total_price}`;
}

export function CartExpressCheckout({ context, cart, onCartChanged }: { context: 'cart' | 'checkout'; cart: Cart | undefined; onCartChanged: () => void }) {
  return <ExpressCheckoutSlot context={context} cartVersion={cartVersionOf(cart)} onCartChanged={onCartChanged} />;
}

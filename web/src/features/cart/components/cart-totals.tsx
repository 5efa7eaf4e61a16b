// "Cart totals": subtotal, any coupon discounts and the total, and the way on to the
// checkout (an express checkout above it, when the page gives one). Shipping and taxes
// are worked out there.
import type { ReactNode } from 'react';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { formatPrice } from '@/lib/format-price';
import type { Cart } from '@/types/store-api';
import styles from './cart-view.module.css';

export function CartTotals({ cart, expressCheckout }: { cart: Cart; expressCheckout?: ReactNode }) {
  const { totals } = cart;
  return (
    <section className={styles.totals} aria-labelledby="cart-totals-heading">
      <h2 id="cart-totals-heading" className={styles.totalsTitle}>
        Cart totals
      </h2>
      <dl className={styles.totalsList}>
        <div>
          <dt>Subtotal</dt>
          <dd data-testid="cart-subtotal">{formatPrice(totals.total_items, totals)}</dd>
        </div>
        {cart.coupons.map((coupon) => (
          <div key={coupon.code}>
            <dt>Coupon: {coupon.code}</dt>
            <dd>{formatPrice(`-${coupon.totals.total_discount}`, coupon.totals)}</dd>
          </div>
        ))}
        <div className={styles.grandTotal}>
          <dt>Total</dt>
          <dd data-testid="cart-total">{formatPrice(totals.total_price, totals)}</dd>
        </div>
      </dl>
      <p className={styles.note}>Shipping and taxes are calculated at checkout.</p>
      {expressCheckout}
      <ButtonLink to={paths.checkout()} size="lg" block className={`checkout-button ${styles.checkout}`}>
        Proceed to checkout
      </ButtonLink>
    </section>
  );
}

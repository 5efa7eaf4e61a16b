// The cart page: notices, the cart's lines, totals and the way back to the shop;
// or the empty-cart message. An address with ?remove_item={key} (the mini-cart's
// fallback when its own removal fails) removes that line here.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Link } from '@/components/ui/link';
import { ButtonLink, buttonClass } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { Notice } from '@/components/ui/notice';
import { paths } from '@/config/paths';
import { settings } from '@/config/settings';
import { htmlToText } from '@/lib/html-text';
import type { Cart, Product } from '@/types/store-api';
import { useCart } from '../api/get-cart';
import { useRemoveCartItem } from '../api/remove-cart-item';
import { CartItemRow, type Notify } from './cart-item-row';
import { CartTotals } from './cart-totals';
import styles from './cart-view.module.css';

export const EMPTY_CART = 'Your cart is currently empty.';

interface PageNotice {
  id: number;
  tone: 'error' | 'success';
  message: string;
}

function useNotices() {
  const [notices, setNotices] = useState<PageNotice[]>([]);
  const nextId = useRef(0);
  const notify: Notify = useCallback((tone, message) => {
    nextId.current += 1;
    const id = nextId.current;
    // As in the original shop, each action's notice replaces the previous ones.
    setNotices([{ id, tone, message }]);
  }, []);
  const dismiss = useCallback((id: number) => setNotices((current) => current.filter((notice) => notice.id !== id)), []);
  return { notices, notify, dismiss };
}

/** Follows the mini-cart's remove link: removes the named line once, then tidies the address. */
function useRemoveItemFromAddress(notify: Notify) {
  const [searchParams, setSearchParams] = useSearchParams();
  const remove = useRemoveCartItem();
  const handled = useRef<string | null>(null);
  const key = searchParams.get('remove_item');

  useEffect(() => {
    if (!key || handled.current === key) return;
    handled.current = key;
    remove.mutate(key, { onError: (error) => notify('error', error.message) });
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        params.delete('remove_item');
        return params;
      },
      { replace: true },
    );
  }, [key, remove, notify, setSearchParams]);
}

/**
 * `renderExpressCheckout`: the express checkout button for the cart, above the way to
 * the checkout. `renderCrossSells`: the products the cart suggests, under its lines.
 */
export function CartView({
  renderExpressCheckout,
  renderCrossSells,
}: {
  renderExpressCheckout?: (cart: Cart) => ReactNode;
  renderCrossSells?: (products: Product[]) => ReactNode;
} = {}) {
  const { data: cart, isPending, error } = useCart({ fresh: true });
  const { notices, notify, dismiss } = useNotices();
  useRemoveItemFromAddress(notify);

  const serverErrors = cart?.errors ?? [];

  return (
    <div className={`container ${styles.page}`}>
      <h1 className={styles.title}>Cart</h1>

      {(notices.length > 0 || serverErrors.length > 0) && (
        <div className={styles.notices}>
          {serverErrors.map((serverError) => (
            <Notice key={serverError.code + serverError.message} tone="error">
              {htmlToText(serverError.message)}
            </Notice>
          ))}
          {notices.map((notice) => (
            <Notice key={notice.id} tone={notice.tone} onDismiss={() => dismiss(notice.id)}>
              {notice.message}
            </Notice>
          ))}
        </div>
      )}

      {error && !cart ? (
        <Notice tone="error">{error.message}</Notice>
      ) : isPending ? (
        <p className={styles.loading} aria-busy="true">
          Loading your cart…
        </p>
      ) : cart.items.length === 0 ? (
        <div className={styles.empty}>
          <Icon name="cart" size={40} />
          <p className={styles.emptyText}>{EMPTY_CART}</p>
          <ButtonLink to={paths.shop()}>Return to shop</ButtonLink>
        </div>
      ) : (
        <div className={styles.layout}>
          {/* The original shop's cart form: with scripts each change applies at once and
              the form never submits; without them it posts quantities and removals. */}
          <form method="post" action="/cart/" className={styles.form} onSubmit={(event) => event.preventDefault()}>
            <input type="hidden" name="woocommerce-cart-nonce" value={settings.cart_nonce} />
            <table className={styles.table}>
              <caption className="visually-hidden">Products in your cart</caption>
              <thead>
                <tr>
                  <th scope="col">Product</th>
                  <th scope="col">Price</th>
                  <th scope="col">Quantity</th>
                  <th scope="col">Subtotal</th>
                  <th scope="col">
                    <span className="visually-hidden">Remove item</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {cart.items.map((item) => (
                  <CartItemRow key={item.key} item={item} notify={notify} />
                ))}
              </tbody>
            </table>
            <noscript>
              <button type="submit" name="update_cart" value="Update cart" className={buttonClass({ variant: 'secondary' }, styles.update)}>
                Update cart
              </button>
            </noscript>
          </form>
          {/* In the order a phone shows them (the page paints as it arrives: a part
              placed above one already painted would push it down); a desktop's grid
              puts the suggestions under the lines. */}
          <aside className={styles.aside}>
            <CartTotals cart={cart} expressCheckout={renderExpressCheckout?.(cart)} />
            <Link to={paths.shop()} className={styles.continue}>
              <Icon name="chevron-left" size={16} />
              Continue shopping
            </Link>
          </aside>
          {renderCrossSells && (cart.cross_sells?.length ?? 0) > 0 && (
            <section className={`cross-sells ${styles.crossSells}`} aria-labelledby="cross-sells-heading">
              <h2 id="cross-sells-heading" className={styles.crossSellsTitle}>
                You may be interested in…
              </h2>
              {renderCrossSells(cart.cross_sells!)}
            </section>
          )}
        </div>
      )}
    </div>
  );
}

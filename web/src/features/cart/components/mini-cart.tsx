// The mini-cart inside the header dropdown: lines with image, name, options,
// "quantity × price" and a remove button (the line is blocked while it is being
// removed), the subtotal, and "View cart" and "Checkout" buttons.
import { Link } from '@/components/ui/link';
import { BlockingOverlay } from '@/components/ui/blocking-overlay';
import { ButtonLink } from '@/components/ui/button';
import { ProductImage } from '@/components/ui/product-image';
import { paths, toAppPath } from '@/config/paths';
import { settings } from '@/config/settings';
import { formatPrice } from '@/lib/format-price';
import { htmlToText } from '@/lib/html-text';
import type { Cart, CartItem } from '@/types/store-api';
import { useRemoveFromCart } from '../api/remove-from-cart';
import { cartItemDetails } from '../lib/cart-item-text';
import { RemoveItemButton } from './remove-item-button';
import styles from './mini-cart.module.css';

export const EMPTY_MINI_CART = 'No products in the cart.';

function MiniCartItem({ item }: { item: CartItem }) {
  const remove = useRemoveFromCart();
  const name = htmlToText(item.name);
  const details = cartItemDetails(item);
  const href = toAppPath(item.permalink);

  return (
    <li className={styles.item} aria-busy={remove.isPending}>
      <Link to={href} className={styles.thumb} tabIndex={-1} aria-hidden="true">
        <ProductImage image={item.images[0]} />
      </Link>
      <div className={styles.info}>
        <Link to={href} className={styles.name}>
          {name}
        </Link>
        {details && <span className={styles.details}>{details}</span>}
        <span className={styles.quantity}>
          {item.quantity} &times; {formatPrice(item.prices.price, item.prices)}
        </span>
      </div>
      <RemoveItemButton name={name} onClick={() => remove.mutate(item.key)} disabled={remove.isPending} className={styles.remove} />
      <BlockingOverlay active={remove.isPending} />
    </li>
  );
}

export function MiniCart({ cart }: { cart: Cart | undefined }) {
  if (!cart || cart.items.length === 0) {
    return <p className={styles.empty}>{EMPTY_MINI_CART}</p>;
  }
  return (
    <div className={styles.miniCart}>
      <ul className={styles.items} data-testid="mini-cart-items">
        {cart.items.map((item) => (
          <MiniCartItem key={item.key} item={item} />
        ))}
      </ul>
      <p className={styles.subtotal}>
        <strong>Subtotal:</strong> <span>{formatPrice(cart.totals.total_items, cart.totals)}</span>
      </p>
      <div className={styles.buttons}>
        <ButtonLink to={settings.cart_url} variant="secondary" block>
          {settings.i18n_view_cart}
        </ButtonLink>
        <ButtonLink to={paths.checkout()} block className="checkout">
          Checkout
        </ButtonLink>
      </div>
    </div>
  );
}

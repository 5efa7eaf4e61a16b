// One line of the cart page: image, name (linking to the product), options, unit
// price, quantity (sent ~500 ms after the last change) and line total. Removing
// blocks the line under a translucent white overlay while the request runs.
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { Link } from '@/components/ui/link';
import { BlockingOverlay } from '@/components/ui/blocking-overlay';
import { Price } from '@/components/ui/price';
import { ProductImage } from '@/components/ui/product-image';
import { QuantityInput } from '@/components/ui/quantity-input';
import { toAppPath } from '@/config/paths';
import { formatPrice } from '@/lib/format-price';
import { htmlToText } from '@/lib/html-text';
import type { CartItem } from '@/types/store-api';
import { useRemoveCartItem } from '../api/remove-cart-item';
import { useUpdateCartItem } from '../api/update-cart-item';
import { cartItemDetails, removedMessage } from '../lib/cart-item-text';
import { RemoveItemButton } from './remove-item-button';
import styles from './cart-view.module.css';

export const QUANTITY_UPDATE_DELAY_MS = 500;

export type Notify = (tone: 'error' | 'success', message: string) => void;

export function CartItemRow({ item, notify }: { item: CartItem; notify: Notify }) {
  const name = htmlToText(item.name);
  const href = toAppPath(item.permalink);
  const details = cartItemDetails(item);
  const update = useUpdateCartItem();
  const remove = useRemoveCartItem();
  const [quantity, setQuantity] = useState(item.quantity);
  const latest = useRef(item);
  latest.current = item;

  // A refetched cart (or another tab) sets the quantity shown.
  useEffect(() => setQuantity(item.quantity), [item.quantity]);

  // The mutation and the notice callback change identity with every render; only the
  // quantity (and the item) decide when to send.
  const sendQuantity = useEffectEvent((key: string, next: number) => {
    update.mutate(
      { key, quantity: next },
      {
        onError: (error) => {
          setQuantity(latest.current.quantity);
          notify('error', error.message);
        },
      },
    );
  });

  // Send the quantity once the shopper stops changing it.
  useEffect(() => {
    if (quantity === latest.current.quantity) return;
    const timer = setTimeout(() => sendQuantity(item.key, quantity), QUANTITY_UPDATE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [quantity, item.key]);

  function onRemove() {
    remove.mutate(item.key, {
      onSuccess: () => notify('success', removedMessage(name)),
      onError: (error) => notify('error', error.message),
    });
  }

  const limits = item.quantity_limits;

  return (
    <tr className={styles.row} aria-busy={remove.isPending || update.isPending} data-testid="cart-item">
      <td className={styles.product}>
        <div className={styles.productInner}>
          <Link to={href} className={styles.thumb} tabIndex={-1} aria-hidden="true">
            <ProductImage image={item.images[0]} eager />
          </Link>
          <div className={styles.productInfo}>
            <Link to={href} className={styles.name}>
              {name}
            </Link>
            {details && <p className={styles.details}>{details}</p>}
            {item.show_backorder_badge && <p className={styles.details}>Available on backorder</p>}
            {item.low_stock_remaining !== null && item.low_stock_remaining > 0 && (
              <p className={styles.details}>Only {item.low_stock_remaining} left in stock</p>
            )}
          </div>
        </div>
      </td>
      <td className={styles.price} data-title="Price">
        <Price prices={item.prices} size="sm" showRange={false} />
      </td>
      <td className={styles.quantity} data-title="Quantity">
        {limits.editable && !item.sold_individually ? (
          <QuantityInput
            label={`${name} quantity`}
            value={quantity}
            min={limits.minimum}
            max={limits.maximum}
            step={Math.max(1, limits.multiple_of)}
            size="sm"
            name={`cart[${item.key}][qty]`}
            onChange={setQuantity}
          />
        ) : (
          <span>{item.quantity}</span>
        )}
      </td>
      <td className={styles.subtotal} data-title="Subtotal">
        <span className={update.isPending ? styles.updating : undefined}>
          {formatPrice(item.totals.line_subtotal, item.totals)}
        </span>
      </td>
      <td className={styles.removeCell}>
        <RemoveItemButton name={name} onClick={onRemove} disabled={remove.isPending} className={styles.remove} itemKey={item.key} />
        <BlockingOverlay active={remove.isPending} />
      </td>
    </tr>
  );
}

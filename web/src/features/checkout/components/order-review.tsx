// "Your order": the items with their quantities and subtotals, the subtotal, each
// coupon with a [Remove] link, one list of shipping rates per package, fees, the tax
// rows and the total. Blocked (white at 0.6) while a refresh prices it again. When the
// last refresh failed, the cart's totals are for another address than the one on
// screen: the summary waits for a valid address instead of showing them.
import { BlockingOverlay } from '@/components/ui/blocking-overlay';
import { Notice } from '@/components/ui/notice';
import { formatPrice } from '@/lib/format-price';
import { htmlToText } from '@/lib/html-text';
import type { Cart, ShippingPackage } from '@/types/store-api';
import { chosenRates } from '../lib/checkout-form';
import styles from './checkout.module.css';

function itemDetails(item: Cart['items'][number]): string {
  return item.variation.map((part) => `${htmlToText(part.attribute)}: ${htmlToText(part.value)}`).join(', ');
}

function isZero(amount: string | null | undefined): boolean {
  return !amount || /^-?0*$/.test(amount);
}

function ShippingRates({
  pkg,
  index,
  count,
  chosen,
  hasAddress,
  disabled,
  onChoose,
}: {
  pkg: ShippingPackage;
  index: number;
  count: number;
  chosen: string | null;
  hasAddress: boolean;
  disabled: boolean;
  onChoose: (index: number, rateId: string) => void;
}) {
  const title = count > 1 ? pkg.name || `Shipping ${index + 1}` : 'Shipping';
  return (
    <tr className="woocommerce-shipping-totals shipping">
      <th scope="row">{title}</th>
      <td data-title={title}>
        {pkg.shipping_rates.length === 0 ? (
          <p className={styles.muted}>
            {hasAddress
              ? 'There are no shipping options available. Please ensure that your address has been entered correctly, or contact us if you need any help.'
              : 'Enter your address to view shipping options.'}
          </p>
        ) : (
          <ul id={index === 0 ? 'shipping_method' : undefined} className={`woocommerce-shipping-methods ${styles.rates}`} aria-label={title}>
            {pkg.shipping_rates.map((rate) => {
              const id = `shipping_method_${index}_${rate.rate_id.replace(/[^a-z0-9_-]/gi, '')}`;
              return (
                <li key={rate.rate_id}>
                  <input
                    type="radio"
                    name={`shipping_method[${index}]`}
                    data-index={index}
                    id={id}
                    value={rate.rate_id}
                    className={`shipping_method ${styles.rateRadio}`}
                    checked={chosen === rate.rate_id}
                    disabled={disabled}
                    onChange={() => onChoose(index, rate.rate_id)}
                  />
                  <label htmlFor={id}>
                    {htmlToText(rate.name)}
                    {!isZero(rate.price) && (
                      <>
                        : <span className={styles.ratePrice}>{formatPrice(rate.price, rate)}</span>
                      </>
                    )}
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </td>
    </tr>
  );
}

export const AWAITING_ADDRESS = 'Enter a valid address to see shipping and taxes.';

export function OrderReview({
  cart,
  shippingChoices,
  refreshing,
  stale = false,
  disabled,
  onChooseShippingRate,
  onRemoveCoupon,
}: {
  cart: Cart;
  shippingChoices: Record<number, string>;
  refreshing: boolean;
  /** The last refresh failed: the totals do not belong to the address on screen. */
  stale?: boolean;
  disabled: boolean;
  onChooseShippingRate: (packageIndex: number, rateId: string) => void;
  onRemoveCoupon: (code: string) => void;
}) {
  const { totals } = cart;
  const packages = cart.shipping_rates ?? [];
  const chosen = chosenRates(packages, shippingChoices);
  const taxLines = totals.tax_lines ?? [];
  const destination = cart.shipping_address;
  const hasAddress = Boolean(destination?.country && (destination.postcode || destination.city || destination.address_1));

  if (stale) {
    return (
      <div id="order_review" className={`woocommerce-checkout-review-order ${styles.review}`} aria-busy={refreshing} data-testid="review-awaiting-address">
        <Notice tone="info" icon="info" className={styles.awaitingNotice}>
          {AWAITING_ADDRESS}
        </Notice>
        <BlockingOverlay active={refreshing} />
      </div>
    );
  }

  return (
    <div id="order_review" className={`woocommerce-checkout-review-order ${styles.review}`} aria-busy={refreshing}>
      <table className={`shop_table woocommerce-checkout-review-order-table ${styles.reviewTable}`}>
        <thead>
          <tr>
            <th scope="col" className="product-name">
              Product
            </th>
            <th scope="col" className={`product-total ${styles.amount}`}>
              Subtotal
            </th>
          </tr>
        </thead>
        <tbody>
          {cart.items.map((item) => {
            const details = itemDetails(item);
            return (
              <tr key={item.key} className="cart_item" data-testid="review-item">
                <td className="product-name">
                  <span className={styles.itemName}>{htmlToText(item.name)}</span>{' '}
                  <strong className={`product-quantity ${styles.quantity}`}>×&nbsp;{item.quantity}</strong>
                  {details && <span className={styles.itemDetails}>{details}</span>}
                </td>
                <td className={`product-total ${styles.amount}`}>{formatPrice(item.totals.line_subtotal, item.totals)}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr className="cart-subtotal">
            <th scope="row">Subtotal</th>
            <td className={styles.amount} data-testid="review-subtotal">
              {formatPrice(totals.total_items, totals)}
            </td>
          </tr>
          {cart.coupons.map((coupon) => (
            <tr key={coupon.code} className={`cart-discount coupon-${coupon.code}`} data-testid="review-coupon">
              <th scope="row">Coupon: {coupon.code}</th>
              <td className={styles.amount}>
                <span className={styles.discount}>-{formatPrice(coupon.totals.total_discount, coupon.totals)}</span>{' '}
                <a
                  href={`#remove-coupon-${coupon.code}`}
                  className={`woocommerce-remove-coupon ${styles.removeCoupon}`}
                  data-coupon={coupon.code}
                  aria-label={`Remove coupon ${coupon.code}`}
                  onClick={(event) => {
                    event.preventDefault();
                    if (!disabled) onRemoveCoupon(coupon.code);
                  }}
                >
                  [Remove]
                </a>
              </td>
            </tr>
          ))}
          {cart.needs_shipping && packages.length === 0 && (
            <tr className="woocommerce-shipping-totals shipping">
              <th scope="row">Shipping</th>
              <td>
                <p className={styles.muted}>Enter your address to view shipping options.</p>
              </td>
            </tr>
          )}
          {cart.needs_shipping &&
            packages.map((pkg, index) => (
              <ShippingRates
                key={String(pkg.package_id)}
                pkg={pkg}
                index={index}
                count={packages.length}
                chosen={chosen[index] ?? null}
                hasAddress={hasAddress}
                disabled={disabled}
                onChoose={onChooseShippingRate}
              />
            ))}
          {(cart.fees ?? []).map((fee) => (
            <tr key={fee.key} className="fee">
              <th scope="row">{htmlToText(fee.name)}</th>
              <td className={styles.amount}>{formatPrice(fee.totals.total, fee.totals)}</td>
            </tr>
          ))}
          {taxLines.length > 0
            ? taxLines.map((line) => (
                <tr key={`${line.name}-${line.rate}`} className="tax-rate" data-testid="review-tax">
                  <th scope="row">{htmlToText(line.name)}</th>
                  <td className={styles.amount}>{formatPrice(line.price, totals)}</td>
                </tr>
              ))
            : !isZero(totals.total_tax) && (
                <tr className="tax-total" data-testid="review-tax">
                  <th scope="row">Tax</th>
                  <td className={styles.amount}>{formatPrice(totals.total_tax, totals)}</td>
                </tr>
              )}
          <tr className={`order-total ${styles.orderTotal}`}>
            <th scope="row">Total</th>
            <td className={styles.amount} data-testid="review-total">
              {formatPrice(totals.total_price, totals)}
            </td>
          </tr>
        </tfoot>
      </table>
      <BlockingOverlay active={refreshing} />
    </div>
  );
}

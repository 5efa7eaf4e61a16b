// An order's details as the shop shows them after checkout, in the account and to a
// guest looking an order up: the items, the totals (subtotal, discount, shipping,
// taxes, payment method, total), the customer's note and both addresses (the shipping
// address only when a parcel travels to it).
import { addressLines } from '@/lib/format-address';
import { formatPrice } from '@/lib/format-price';
import { useAddressLocale } from '@/lib/address-locale';
import type { Order } from '@/types/order';
import styles from './order.module.css';

function isZero(amount: string): boolean {
  return /^-?0*$/.test(amount.trim());
}

function shippingText(order: Order): string | null {
  if (order.shipping_lines.length === 0) return null;
  const names = order.shipping_lines.map((line) => line.name).join(', ');
  if (isZero(order.totals.shipping)) return names;
  return `${formatPrice(order.totals.shipping, order.totals)} via ${names}`;
}

export function OrderDetails({ order, heading = 'Order details', showAddresses = true }: { order: Order; heading?: string; showAddresses?: boolean }) {
  const money = (amount: string) => formatPrice(amount, order.totals);
  const shipping = shippingText(order);
  const rows: { key: string; label: string; value: string; testId?: string }[] = [{ key: 'subtotal', label: 'Subtotal:', value: money(order.totals.subtotal) }];
  if (!isZero(order.totals.discount)) rows.push({ key: 'discount', label: 'Discount:', value: `-${money(order.totals.discount)}` });
  for (const fee of order.fee_lines) rows.push({ key: `fee-${fee.name}`, label: `${fee.name}:`, value: money(fee.total) });
  if (shipping) rows.push({ key: 'shipping', label: 'Shipping:', value: shipping });
  if (order.tax_lines.length > 0) {
    for (const tax of order.tax_lines) {
      const amount = (BigInt(tax.tax_total || '0') + BigInt(tax.shipping_tax_total || '0')).toString();
      rows.push({ key: `tax-${tax.label}`, label: `${tax.label}:`, value: money(amount) });
    }
  } else if (!isZero(order.totals.tax)) {
    rows.push({ key: 'tax', label: 'Tax:', value: money(order.totals.tax) });
  }
  if (order.payment_method_title) rows.push({ key: 'payment-method', label: 'Payment method:', value: order.payment_method_title });
  rows.push({ key: 'total', label: 'Total:', value: money(order.totals.total), testId: 'order-total' });

  return (
    <>
      <section className={`woocommerce-order-details ${styles.section}`} aria-labelledby="order-details-heading">
        <h2 id="order-details-heading" className={`woocommerce-order-details__title ${styles.heading}`}>
          {heading}
        </h2>
        <table className={`woocommerce-table woocommerce-table--order-details shop_table order_details ${styles.table}`}>
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col" className={styles.amount}>
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((item) => (
              <tr key={item.id} className="woocommerce-table__line-item order_item" data-testid="order-item">
                <td>
                  <span className={styles.itemName}>{item.name}</span>{' '}
                  <strong className={`product-quantity ${styles.quantity}`}>×&nbsp;{item.quantity}</strong>
                  {item.variation.length > 0 && (
                    <span className={styles.variation}>{item.variation.map((part) => `${part.attribute}: ${part.value}`).join(', ')}</span>
                  )}
                </td>
                <td className={styles.amount}>{money(item.subtotal)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            {rows.map((row) => (
              <tr key={row.key} className={row.key === 'total' ? styles.totalRow : undefined}>
                <th scope="row">{row.label}</th>
                <td className={styles.amount} data-testid={row.testId}>
                  {row.value}
                </td>
              </tr>
            ))}
            {order.customer_note && (
              <tr>
                <th scope="row">Note:</th>
                <td className={styles.note}>{order.customer_note}</td>
              </tr>
            )}
          </tfoot>
        </table>
      </section>
      {showAddresses && <CustomerAddresses order={order} />}
    </>
  );
}

/** Shipping methods whose parcels are collected in person: no address to show for them. */
const COLLECTED = new Set(['local_pickup', 'pickup_location']);

/** Whether any of the order's parcels is sent to its shipping address. */
function shipsToAddress(order: Order): boolean {
  return order.shipping_lines.some((line) => !COLLECTED.has(line.method_id));
}

function CustomerAddresses({ order }: { order: Order }) {
  const { data: locale } = useAddressLocale();
  const billing = addressLines(order.billing_address, locale);
  const shipping = shipsToAddress(order) ? addressLines(order.shipping_address, locale) : [];
  const { email, phone } = order.billing_address;
  return (
    <section className={`woocommerce-customer-details ${styles.addresses}`}>
      <div className={styles.addressCard}>
        <h2 className={styles.heading}>Billing address</h2>
        <address data-testid="billing-address">
          {billing.length > 0 ? billing.map((line, index) => <span key={index}>{line}</span>) : <span>N/A</span>}
          {phone && <span className="woocommerce-customer-details--phone">{phone}</span>}
          {email && <span className="woocommerce-customer-details--email">{email}</span>}
        </address>
      </div>
      {shipping.length > 0 && (
        <div className={styles.addressCard}>
          <h2 className={styles.heading}>Shipping address</h2>
          <address data-testid="shipping-address">
            {shipping.map((line, index) => (
              <span key={index}>{line}</span>
            ))}
          </address>
        </div>
      )}
    </section>
  );
}

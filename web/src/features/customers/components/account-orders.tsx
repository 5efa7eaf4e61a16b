// /my-account/orders: the customer's orders (Order, Date, Status, Total, Actions → View),
// a page at a time with Previous and Next.
import { Link } from '@/components/ui/link';
import { ButtonLink } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { paths } from '@/config/paths';
import { formatOrderDate } from '@/lib/format-address';
import { formatPrice } from '@/lib/format-price';
import { useAccountOrders } from '../api/get-account-orders';
import styles from './account.module.css';

export function AccountOrders({ page }: { page: number }) {
  const { data, error, isPending, isPlaceholderData } = useAccountOrders(page);

  if (error && !data) return <Notice tone="error">{error.message}</Notice>;
  if (isPending) return <p className={styles.muted} aria-busy="true">Loading your orders…</p>;

  if (data.orders.length === 0 && page === 1) {
    return (
      <div className={`woocommerce-info ${styles.emptyBox}`}>
        <p>No order has been made yet.</p>
        <ButtonLink to={paths.shop()} variant="secondary" size="sm">
          Browse products
        </ButtonLink>
      </div>
    );
  }

  return (
    <div className={isPlaceholderData ? styles.stale : undefined}>
      <table className={`woocommerce-orders-table shop_table account-orders-table ${styles.ordersTable}`}>
        <caption className="visually-hidden">Your orders</caption>
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Date</th>
            <th scope="col">Status</th>
            <th scope="col">Total</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.orders.map((order) => (
            <tr key={order.id} className={`woocommerce-orders-table__row order status-${order.status}`} data-testid="account-order">
              <td data-title="Order">
                <Link to={paths.accountViewOrder(order.id)} className={styles.orderNumber}>
                  #{order.number}
                </Link>
              </td>
              <td data-title="Date">
                <time dateTime={order.date_created}>{formatOrderDate(order.date_created)}</time>
              </td>
              <td data-title="Status">
                <span className={styles.status} data-status={order.status}>
                  {order.status_label}
                </span>
              </td>
              <td data-title="Total">
                {formatPrice(order.total, order)} for {order.item_count} {order.item_count === 1 ? 'item' : 'items'}
              </td>
              <td className={styles.actions}>
                <ButtonLink to={paths.accountViewOrder(order.id)} variant="secondary" size="sm" aria-label={`View order ${order.number}`}>
                  View
                </ButtonLink>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data.totalPages > 1 && (
        <nav className={styles.pager} aria-label="Order pages">
          {page > 1 ? (
            <ButtonLink to={paths.accountOrders(page - 1)} variant="secondary" size="sm">
              Previous
            </ButtonLink>
          ) : (
            <span />
          )}
          <span className={styles.muted}>
            Page {page} of {data.totalPages}
          </span>
          {page < data.totalPages ? (
            <ButtonLink to={paths.accountOrders(page + 1)} variant="secondary" size="sm">
              Next
            </ButtonLink>
          ) : (
            <span />
          )}
        </nav>
      )}
    </div>
  );
}

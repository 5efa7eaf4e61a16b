// GET /orders/{id}?key=wc_order_…: an order shown to whoever holds its key (the
// thank-you and order-pay pages).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { restGet } from '@/lib/api-client';
import type { Order } from '@/types/order';

export async function getOrder(id: string, key: string): Promise<Order> {
  const { data } = await restGet<Order>(`/orders/${encodeURIComponent(id)}`, { key });
  return data;
}

export function getOrderQueryOptions(id: string, key: string) {
  return queryOptions({ queryKey: ['order', id, key], queryFn: () => getOrder(id, key) });
}

/** How often an order waiting on the provider's word is read again, and for how long. */
export const AWAITING_REFRESH_MS = 2000;
export const AWAITING_REFRESH_LIMIT = 15;

/**
 * The order; `awaitingPayment`: the shopper is back from the provider's page and its
 * word (a webhook) may not have landed yet, so a pending order is read again a while.
 */
export function useOrder(id: string, key: string, { awaitingPayment = false } = {}) {
  return useQuery({
    ...getOrderQueryOptions(id, key),
    refetchInterval: (query) =>
      awaitingPayment && query.state.data?.status === 'pending' && query.state.dataUpdateCount < AWAITING_REFRESH_LIMIT ? AWAITING_REFRESH_MS : false,
  });
}

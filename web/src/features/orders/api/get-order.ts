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

export function useOrder(id: string, key: string) {
  return useQuery(getOrderQueryOptions(id, key));
}

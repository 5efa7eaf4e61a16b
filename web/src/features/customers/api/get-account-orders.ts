// GET /account/orders?page=N: the customer's orders, newest first, with X-WP-Total
// and X-WP-TotalPages; GET /account/orders/{id}: one of them in full.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { restGet } from '@/lib/api-client';
import type { Order, OrderSummary } from '@/types/order';

export interface OrderPage {
  orders: OrderSummary[];
  total: number;
  totalPages: number;
}

export async function getAccountOrders(page: number): Promise<OrderPage> {
  const { data, headers } = await restGet<OrderSummary[]>('/account/orders', { page });
  return {
    orders: data,
    total: Number(headers.get('X-WP-Total') ?? data.length),
    totalPages: Math.max(1, Number(headers.get('X-WP-TotalPages') ?? 1)),
  };
}

export function useAccountOrders(page: number) {
  return useQuery(
    queryOptions({
      queryKey: ['account', 'orders', page],
      queryFn: () => getAccountOrders(page),
      placeholderData: keepPreviousData,
    }),
  );
}

export async function getAccountOrder(id: number | string): Promise<Order> {
  const { data } = await restGet<Order>(`/account/orders/${id}`);
  return data;
}

export function useAccountOrder(id: number | string) {
  return useQuery(queryOptions({ queryKey: ['account', 'order', String(id)], queryFn: () => getAccountOrder(id) }));
}

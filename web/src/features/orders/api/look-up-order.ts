// POST /orders/lookup: a guest finds an order by its number and the billing e-mail.
import { useMutation } from '@tanstack/react-query';
import { restPost } from '@/lib/api-client';
import type { Order } from '@/types/order';

export interface LookUpInput {
  order_number: string;
  billing_email: string;
}

export function lookUpOrder(input: LookUpInput): Promise<Order> {
  return restPost<Order>('/orders/lookup', input);
}

export function useLookUpOrder() {
  return useMutation({ mutationFn: lookUpOrder });
}

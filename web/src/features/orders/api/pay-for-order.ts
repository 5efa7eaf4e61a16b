// POST /checkout/{id}?key=…&billing_email=… (Store API): pays a pending order with the
// chosen method; the answer says where to send the shopper next.
import { useMutation } from '@tanstack/react-query';
import { storeApiPost } from '@/lib/api-client';
import type { Order } from '@/types/order';

export interface PaymentResult {
  order_id: number;
  status: string;
  payment_result: { payment_status: string; redirect_url: string };
}

export function payForOrder(order: Order, paymentMethod: string): Promise<PaymentResult> {
  return storeApiPost<PaymentResult>(
    `/checkout/${order.id}`,
    { payment_method: paymentMethod, payment_data: [], billing_address: order.billing_address },
    { query: { key: order.order_key, billing_email: order.billing_address.email ?? '' } },
  );
}

export function usePayForOrder() {
  return useMutation({ mutationFn: ({ order, paymentMethod }: { order: Order; paymentMethod: string }) => payForOrder(order, paymentMethod) });
}

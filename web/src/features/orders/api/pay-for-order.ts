// POST /checkout/{id}?key=…&billing_email=… (Store API): pays a pending order with the
// chosen method (and what its payment form prepared, `payment_data`); the answer says
// where to send the shopper next.
import { useMutation } from '@tanstack/react-query';
import { storeApiPost } from '@/lib/api-client';
import type { Order } from '@/types/order';
import type { PaymentDataItem } from '@/types/payment-binding';

export interface PaymentResult {
  order_id: number;
  status: string;
  payment_result: { payment_status: string; redirect_url: string };
}

export function payForOrder(order: Order, paymentMethod: string, paymentData: PaymentDataItem[] = []): Promise<PaymentResult> {
  return storeApiPost<PaymentResult>(
    `/checkout/${order.id}`,
    { payment_method: paymentMethod, payment_data: paymentData, billing_address: order.billing_address },
    { query: { key: order.order_key, billing_email: order.billing_address.email ?? '' } },
  );
}

export function usePayForOrder() {
  return useMutation({
    mutationFn: ({ order, paymentMethod, paymentData }: { order: Order; paymentMethod: string; paymentData?: PaymentDataItem[] }) =>
      payForOrder(order, paymentMethod, paymentData),
  });
}

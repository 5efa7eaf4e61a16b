// POST /checkout: places the order from the cart with the shopper's addresses, note,
// payment method and account choice. A placed order answers where to go next; a
// refusal answers the Store API's error, read by lib/checkout-failure.ts.
import { settings } from '@/config/settings';
import { storeApiPost } from '@/lib/api-client';
import type { StoreAddress } from '@/types/store-api';

export interface CheckoutPayload {
  billing_address: StoreAddress;
  shipping_address: Omit<StoreAddress, 'email'>;
  customer_note: string;
  payment_method: string;
  payment_data: { key: string; value: string }[];
  create_account: boolean;
  customer_password?: string;
}

export interface PlacedOrder {
  order_id: number;
  status: string;
  order_key: string;
  payment_result: { payment_status: string; redirect_url: string };
}

export function placeOrder(payload: CheckoutPayload): Promise<PlacedOrder> {
  return storeApiPost<PlacedOrder>('/checkout', payload);
}

export const checkoutErrorText = () => settings.checkout.i18n_checkout_error;

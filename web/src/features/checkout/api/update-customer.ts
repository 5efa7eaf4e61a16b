// POST /cart/update-customer: the checkout's addresses, answered with the cart priced
// for them (shipping rates, taxes, totals). The order review refresh sends it.
import { storeApiPost } from '@/lib/api-client';
import type { Cart, StoreAddress } from '@/types/store-api';

export interface CustomerAddresses {
  billing_address: StoreAddress;
  shipping_address: Omit<StoreAddress, 'email'>;
}

export function updateCustomer(addresses: CustomerAddresses, signal?: AbortSignal): Promise<Cart> {
  return storeApiPost<Cart>('/cart/update-customer', addresses, { signal });
}

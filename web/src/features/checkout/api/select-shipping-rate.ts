// POST /cart/select-shipping-rate: the shopper's choice of rate for one package,
// answered with the repriced cart.
import { storeApiPost } from '@/lib/api-client';
import type { Cart } from '@/types/store-api';

export function selectShippingRate(packageId: number | string, rateId: string, signal?: AbortSignal): Promise<Cart> {
  return storeApiPost<Cart>('/cart/select-shipping-rate', { package_id: packageId, rate_id: rateId }, { signal });
}

// The shopper's cart as it was before a wallet sheet that was closed without paying:
// the sheet's calls gave the cart the wallet's address and a shipping rate for it
// (so the sheet could show the checkout's prices); closing the sheet puts back the
// addresses and the rates the cart had. Only the cart and checkout pages need this: a
// product page's sheet works on a cart of its own.
import { storeApiGet, storeApiPost } from '@/lib/api-client';
import type { Cart, StoreAddress } from '@/types/store-api';

export interface CartLocation {
  billing_address?: StoreAddress;
  shipping_address?: StoreAddress;
  /** The rate chosen in each package, by package id. */
  rates: { packageId: number | string; rateId: string }[];
}

function locationOf(cart: Cart): CartLocation {
  const rates = (cart.shipping_rates ?? []).flatMap((pkg) => {
    const chosen = pkg.shipping_rates.find((rate) => rate.selected);
    return chosen ? [{ packageId: pkg.package_id, rateId: chosen.rate_id }] : [];
  });
  return { billing_address: cart.billing_address, shipping_address: cart.shipping_address, rates };
}

/** GET /cart: where the shopper's cart is, before the sheet opens. */
export async function readCartLocation(): Promise<CartLocation> {
  const { data } = await storeApiGet<Cart>('/cart');
  return locationOf(data);
}

/** Puts the addresses back, then the rates the cart no longer has chosen; the cart as it is then. */
export async function restoreCartLocation(before: CartLocation): Promise<Cart> {
  let cart = await storeApiPost<Cart>('/cart/update-customer', {
    ...(before.billing_address ? { billing_address: before.billing_address } : {}),
    ...(before.shipping_address ? { shipping_address: before.shipping_address } : {}),
  });
  for (const { packageId, rateId } of before.rates) {
    const pkg = cart.shipping_rates?.find((candidate) => candidate.package_id === packageId);
    const offered = pkg?.shipping_rates.find((rate) => rate.rate_id === rateId);
    if (offered && !offered.selected) cart = await storeApiPost<Cart>('/cart/select-shipping-rate', { package_id: packageId, rate_id: rateId });
  }
  return cart;
}

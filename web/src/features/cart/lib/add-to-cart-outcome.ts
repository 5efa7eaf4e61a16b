// What happens after the classic add_to_cart call answers, as the original shop
// decides it: an error with a product URL sends the shopper to the product; the
// "redirect to the cart after adding" setting sends them to the cart; otherwise
// the cart is refreshed and the success is announced.
import type { FragmentsResponse } from '@/types/store-api';

export type AddToCartOutcome =
  | { kind: 'go-to-product'; url: string }
  | { kind: 'go-to-cart'; cartHash: string }
  | { kind: 'added'; cartHash: string }
  | { kind: 'failed' };

export const ADD_TO_CART_FAILED = 'This product cannot be added to the cart.';

export function addToCartOutcome(
  response: FragmentsResponse | null | undefined,
  redirectAfterAdd: 'yes' | 'no',
): AddToCartOutcome {
  if (!response || typeof response !== 'object') return { kind: 'failed' };
  if (response.error) {
    return response.product_url ? { kind: 'go-to-product', url: response.product_url } : { kind: 'failed' };
  }
  const cartHash = response.cart_hash ?? '';
  return redirectAfterAdd === 'yes' ? { kind: 'go-to-cart', cartHash } : { kind: 'added', cartHash };
}

export function addedToCartMessage(productName: string): string {
  return `\u201c${productName}\u201d has been added to your cart.`;
}

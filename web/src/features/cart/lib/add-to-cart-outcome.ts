// What happens after the classic add_to_cart call answers, as the original shop
// decides it: an error with a product URL sends the shopper to the product; the
// "redirect to the cart after adding" setting sends them to the cart; otherwise
// the cart is refreshed and the success is announced. When the shopper is already on
// that product's page, going there again would only hide the reason: the shop's
// message is shown instead.
import { htmlToText } from '@/lib/html-text';
import type { FragmentsResponse } from '@/types/store-api';

export type AddToCartOutcome =
  | { kind: 'go-to-product'; url: string }
  | { kind: 'go-to-cart'; cartHash: string }
  | { kind: 'added'; cartHash: string }
  | { kind: 'failed'; message?: string };

export const ADD_TO_CART_FAILED = 'This product cannot be added to the cart.';

export function addToCartOutcome(
  response: FragmentsResponse | null | undefined,
  redirectAfterAdd: 'yes' | 'no',
  currentPath = '',
): AddToCartOutcome {
  if (!response || typeof response !== 'object') return { kind: 'failed' };
  if (response.error) {
    const message = response.message ? htmlToText(response.message) : undefined;
    if (!response.product_url) return { kind: 'failed', message };
    if (message && samePage(response.product_url, currentPath)) return { kind: 'failed', message };
    return { kind: 'go-to-product', url: response.product_url };
  }
  const cartHash = response.cart_hash ?? '';
  return redirectAfterAdd === 'yes' ? { kind: 'go-to-cart', cartHash } : { kind: 'added', cartHash };
}

export function addedToCartMessage(productName: string): string {
  return `\u201c${productName}\u201d has been added to your cart.`;
}

/** Whether a product URL names the page at `currentPath` (trailing slashes aside). */
function samePage(url: string, currentPath: string): boolean {
  if (!currentPath) return false;
  const trim = (path: string) => path.replace(/\/+$/, '');
  try {
    return trim(new URL(url, 'http://shop.invalid').pathname) === trim(currentPath);
  } catch {
    return false;
  }
}

// What a product card offers: an add-to-cart button for simple products that can
// be bought right away, otherwise a link worded as the original shop words it.

import { paths } from '@/config/paths';
import type { Product } from '@/types/store-api';

export type CardAction =
  | { kind: 'add-to-cart' }
  | { kind: 'link'; href: string; text: string; external: boolean };

export function cardAction(product: Product): CardAction {
  const productPage = paths.product(product.slug);
  switch (product.type) {
    case 'simple':
      return product.is_purchasable && product.is_in_stock
        ? { kind: 'add-to-cart' }
        : { kind: 'link', href: productPage, text: 'Read more', external: false };
    case 'variable':
      return {
        kind: 'link',
        href: productPage,
        text: product.is_purchasable && product.is_in_stock ? 'Select options' : 'Read more',
        external: false,
      };
    case 'external':
      return {
        kind: 'link',
        href: product.add_to_cart.url || productPage,
        text: product.add_to_cart.text || 'Buy product',
        external: Boolean(product.add_to_cart.url),
      };
    case 'grouped':
      return { kind: 'link', href: productPage, text: 'View products', external: false };
    default:
      return { kind: 'link', href: productPage, text: 'Read more', external: false };
  }
}

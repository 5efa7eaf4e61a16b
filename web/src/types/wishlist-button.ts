// What a catalogue page hands to the wishlist's heart. The catalogue knows which
// product (and, on its page, which variation is chosen); the wishlist knows whether
// it is listed and how to list it. Pages compose the two (see app/routes), so
// neither feature imports the other.
import type { ReactNode } from 'react';

export interface WishlistButtonRequest {
  /** The product (the parent of a variable product). */
  productId: number;
  productName: string;
  /** The Store API's type: simple, variable, grouped, external… */
  productType: string;
  /** The chosen variation on a product page; absent on cards and for other products. */
  variationId?: number;
  /** A variable product's page with no variation chosen yet. */
  needsChoice?: boolean;
  /** A product card (a heart on the image) or a product page (a heart with its text). */
  placement: 'card' | 'product';
}

export type RenderWishlistButton = (request: WishlistButtonRequest) => ReactNode;

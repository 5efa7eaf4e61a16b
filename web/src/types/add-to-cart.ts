// What a catalogue page hands to the cart's add-to-cart button. The catalogue knows
// which product, variation and quantity; the cart knows how to add it. Pages
// compose the two (see app/routes), so neither feature imports the other.
import type { ReactNode } from 'react';

export interface AddToCartRequest {
  /** The product, or the chosen variation of a variable product. */
  productId: number;
  /** For the success message: “{name}” has been added to your cart. */
  productName: string;
  quantity: number;
  /** Set for a variation, with the chosen value of each attribute by form field name. */
  variationId?: number;
  attributes?: Record<string, string>;
  /** Accessible name of the button, e.g. Add “Beanie” to your cart. */
  label?: string;
  /** True until the shopper has made a complete, in-stock choice. */
  disabled?: boolean;
  size?: 'sm' | 'md' | 'lg';
  /**
   * Inside the product form: the button submits it as the original's does
   * (`add-to-cart=ID`), which is how the form works without scripts.
   */
  submitsProduct?: number;
}

export type RenderAddToCart = (request: AddToCartRequest) => ReactNode;

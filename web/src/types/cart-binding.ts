// How a page outside the cart feature reads and updates the shopper's cart: the app
// builds one from the cart feature (app/cart-binding.ts) and hands it to the checkout,
// so the header's mini-cart and the checkout always show the same cart.
import type { Cart } from './store-api';

export interface CartBinding {
  cart: Cart | undefined;
  isPending: boolean;
  /** Whether the cart was fetched since the page opened (not just read from the visit's cache). */
  isFresh: boolean;
  error: Error | null;
  /** Puts a cart returned by a Store API write in place (header, cart page, checkout). */
  setCart: (cart: Cart) => void;
  /** Fetches the cart again; resolves once the new one is in place. */
  refresh: () => Promise<void>;
}

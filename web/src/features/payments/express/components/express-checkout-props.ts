// What the express checkout's slot takes from its page, and what it hands the element
// it loads: one place both files read, so neither imports the other for a type.
import type { ExpressSession } from '../api/express-session';
import type { ExpressContext, ExpressParams } from '../api/get-express-params';
import type { ProductChoice } from '../lib/express-flow';

export interface ExpressCheckoutSlotProps {
  context: ExpressContext;
  /** The product page's product (a variable product's parent). */
  productId?: number;
  /** The product page's choice, as its add-to-cart button has it. */
  choice?: ProductChoice;
  /** The cart and checkout pages: changes whenever the cart does, so the button's amount follows. */
  cartVersion?: string;
  /** The shopper's cart changed under the page (an order was placed from it, or it was put back). */
  onCartChanged?: () => void;
}

export interface ExpressCheckoutElementProps extends ExpressCheckoutSlotProps {
  params: ExpressParams;
  session: ExpressSession;
}

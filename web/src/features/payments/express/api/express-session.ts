// Whose cart the express checkout's calls speak for. On the cart and checkout pages the
// shopper's own (cookies, the Store API nonce). On a product page a cart of the
// button's own, named by the `Cart-Token` its params hand out and sent without
// cookies: the shopper's cart, cookies and nonce are never touched.

export interface ExpressSession {
  ownCart: boolean;
  /** The button's cart, as the shop last named it. */
  cartToken: string | null;
}

/** The shopper's cart (the cart and checkout pages). */
export const shopperSession = (): ExpressSession => ({ ownCart: true, cartToken: null });

/** A cart of the button's own (the product page); the token comes with the params. */
export const tokenSession = (cartToken: string | null = null): ExpressSession => ({ ownCart: false, cartToken });

// The product page's own buying controls, composed from the cart feature and the
// payments feature: its add-to-cart button, and the express checkout button above it
// for the same choice (quantity, variation). The express button's slot is all of it
// this page carries: the element and the provider's code load later, and only in a
// shop that offers express checkout.
import { AddToCartButton } from '@/features/cart/components/add-to-cart-button';
import { ExpressCheckoutSlot } from '@/features/payments/express/components/express-checkout-slot';
import type { RenderAddToCart } from '@/types/add-to-cart';

export const renderProductPurchase: RenderAddToCart = (request) => (
  <>
    <AddToCartButton {...request} />
    <ExpressCheckoutSlot
      context="product"
      productId={request.submitsProduct ?? request.productId}
      choice={{
        productId: request.productId,
        quantity: request.quantity,
        attributes: request.attributes,
        disabled: Boolean(request.disabled),
        variationChosen: request.variationId !== undefined,
      }}
    />
  </>
);

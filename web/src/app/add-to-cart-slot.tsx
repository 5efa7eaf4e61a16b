// Where the catalogue meets the cart: catalogue components ask for an add-to-cart
// control through this render function, and the cart feature provides it.
import { AddToCartButton } from '@/features/cart/components/add-to-cart-button';
import type { RenderAddToCart } from '@/types/add-to-cart';

export const renderAddToCart: RenderAddToCart = (request) => <AddToCartButton {...request} />;

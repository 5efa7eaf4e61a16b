// /cart: the cart page, with the payments feature's express checkout above its way
// to the checkout and the catalogue's cards for the products the cart suggests.
import { useQueryClient } from '@tanstack/react-query';
import { cartQueryKey } from '@/features/cart/api/get-cart';
import { CartView } from '@/features/cart/components/cart-view';
import { ProductGrid } from '@/features/catalog/components/product-grid';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { renderAddToCart } from '../add-to-cart-slot';
import { renderWishlistButton } from '../wishlist-slot';
import { CartExpressCheckout } from '../express-checkout';

export default function CartRoute() {
  useDocumentTitle('Cart');
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: cartQueryKey });
  return (
    <CartView
      renderExpressCheckout={(cart) => <CartExpressCheckout context="cart" cart={cart} onCartChanged={refresh} />}
      renderCrossSells={(products) => <ProductGrid products={products} renderAddToCart={renderAddToCart} renderWishlistButton={renderWishlistButton} />}
    />
  );
}

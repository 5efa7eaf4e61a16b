// /cart: the cart page.
import { CartView } from '@/features/cart/components/cart-view';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function CartRoute() {
  useDocumentTitle('Cart');
  return <CartView />;
}

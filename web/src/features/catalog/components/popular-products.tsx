// A row of the shop's most popular products for the home page.
import type { RenderAddToCart } from '@/types/add-to-cart';
import type { RenderWishlistButton } from '@/types/wishlist-button';
import { useProducts, type ProductListParams } from '../api/get-products';
import { ProductGrid, ProductGridSkeleton } from './product-grid';

export const popularProductsParams = (count: number): ProductListParams => ({ per_page: count, orderby: 'popularity', order: 'desc' });

export function PopularProducts({
  count = 8,
  renderAddToCart,
  renderWishlistButton,
}: {
  count?: number;
  renderAddToCart: RenderAddToCart;
  renderWishlistButton?: RenderWishlistButton;
}) {
  const { data, isPending } = useProducts(popularProductsParams(count));
  if (isPending) return <ProductGridSkeleton count={4} />;
  if (!data || data.products.length === 0) return null;
  return <ProductGrid products={data.products} renderAddToCart={renderAddToCart} renderWishlistButton={renderWishlistButton} label="Popular products" />;
}

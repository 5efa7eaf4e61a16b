// A row of the shop's most popular products for the home page.
import type { RenderAddToCart } from '@/types/add-to-cart';
import { useProducts } from '../api/get-products';
import { ProductGrid, ProductGridSkeleton } from './product-grid';

export function PopularProducts({ count = 8, renderAddToCart }: { count?: number; renderAddToCart: RenderAddToCart }) {
  const { data, isPending } = useProducts({ per_page: count, orderby: 'popularity', order: 'desc' });
  if (isPending) return <ProductGridSkeleton count={4} />;
  if (!data || data.products.length === 0) return null;
  return <ProductGrid products={data.products} renderAddToCart={renderAddToCart} label="Popular products" />;
}

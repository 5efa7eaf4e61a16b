// "Related products": others from the product's first category.
import type { RenderAddToCart } from '@/types/add-to-cart';
import type { RenderWishlistButton } from '@/types/wishlist-button';
import type { Product } from '@/types/store-api';
import { useProducts, type ProductListParams } from '../api/get-products';
import { ProductGrid } from './product-grid';
import styles from './product-details.module.css';

const RELATED_COUNT = 4;

/** The listing the related products come from (one more, as the product may be in it); null without a category. */
export function relatedProductsParams(product: Product): ProductListParams | null {
  const category = product.categories[0];
  if (!category) return null;
  return { category: String(category.id), per_page: RELATED_COUNT + 1, orderby: 'popularity', order: 'desc' };
}

export function RelatedProducts({
  product,
  renderAddToCart,
  renderWishlistButton,
}: {
  product: Product;
  renderAddToCart: RenderAddToCart;
  renderWishlistButton?: RenderWishlistButton;
}) {
  const params = relatedProductsParams(product);
  const { data } = useProducts(params ?? {}, { enabled: params !== null });
  const related = (data?.products ?? []).filter((candidate) => candidate.id !== product.id).slice(0, RELATED_COUNT);
  if (related.length === 0) return null;

  return (
    <section className={styles.related} aria-labelledby="related-products-heading">
      <h2 id="related-products-heading" className={styles.sectionTitle}>
        Related products
      </h2>
      <ProductGrid products={related} renderAddToCart={renderAddToCart} renderWishlistButton={renderWishlistButton} />
    </section>
  );
}

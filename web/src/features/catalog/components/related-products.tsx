// "Related products": others from the product's first category.
import type { RenderAddToCart } from '@/types/add-to-cart';
import type { Product } from '@/types/store-api';
import { useProducts } from '../api/get-products';
import { ProductGrid } from './product-grid';
import styles from './product-details.module.css';

const RELATED_COUNT = 4;

export function RelatedProducts({ product, renderAddToCart }: { product: Product; renderAddToCart: RenderAddToCart }) {
  const category = product.categories[0];
  const { data } = useProducts(
    { category: String(category?.id ?? ''), per_page: RELATED_COUNT + 1, orderby: 'popularity', order: 'desc' },
    { enabled: Boolean(category) },
  );
  const related = (data?.products ?? []).filter((candidate) => candidate.id !== product.id).slice(0, RELATED_COUNT);
  if (related.length === 0) return null;

  return (
    <section className={styles.related} aria-labelledby="related-products-heading">
      <h2 id="related-products-heading" className={styles.sectionTitle}>
        Related products
      </h2>
      <ProductGrid products={related} renderAddToCart={renderAddToCart} />
    </section>
  );
}

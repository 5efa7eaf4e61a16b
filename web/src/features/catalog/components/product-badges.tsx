// The "Sale!" and "Out of stock" badges on a product's image.
import type { Product } from '@/types/store-api';
import styles from './product-badges.module.css';

export function ProductBadges({ product }: { product: Pick<Product, 'on_sale' | 'is_in_stock'> }) {
  if (!product.on_sale && product.is_in_stock) return null;
  return (
    <div className={styles.badges}>
      {product.on_sale && <span className={`${styles.badge} ${styles.sale}`}>Sale!</span>}
      {!product.is_in_stock && <span className={`${styles.badge} ${styles.soldOut}`}>Out of stock</span>}
    </div>
  );
}

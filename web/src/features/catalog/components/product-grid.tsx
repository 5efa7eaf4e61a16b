// Products in a grid: two columns on phones, three on tablets, four on desktops.
import type { RenderAddToCart } from '@/types/add-to-cart';
import type { RenderWishlistButton } from '@/types/wishlist-button';
import type { Product } from '@/types/store-api';
import { HydrateApart } from '@/components/hydrate-apart';
import { ProductCard } from './product-card';
import styles from './product-grid.module.css';

export function ProductGrid({
  products,
  renderAddToCart,
  renderWishlistButton,
  eagerImages = 0,
  label,
}: {
  products: Product[];
  renderAddToCart: RenderAddToCart;
  renderWishlistButton?: RenderWishlistButton;
  /** How many leading images to load at once (those likely above the fold). */
  eagerImages?: number;
  label?: string;
}) {
  return (
    <ul className={styles.grid} aria-label={label}>
      {products.map((product, index) => (
        <li key={product.id}>
          <HydrateApart name={`card-${index}`}>
            <ProductCard product={product} renderAddToCart={renderAddToCart} renderWishlistButton={renderWishlistButton} eagerImage={index < eagerImages} priorityImage={eagerImages > 0 && index === 0} />
          </HydrateApart>
        </li>
      ))}
    </ul>
  );
}

export function ProductGridSkeleton({ count = 8 }: { count?: number }) {
  return (
    <ul className={styles.grid} aria-hidden="true">
      {Array.from({ length: count }, (_, index) => (
        <li key={index} className={styles.skeleton}>
          <div className={styles.skeletonImage} />
          <div className={styles.skeletonLine} />
          <div className={`${styles.skeletonLine} ${styles.short}`} />
        </li>
      ))}
    </ul>
  );
}

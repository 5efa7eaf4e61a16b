// The product page's other suggestions: its upsells ("You may also like…", the
// products the shop offers instead) and the shopper's recently viewed products.
// Recently viewed products come from the browser, so they appear once the page runs;
// they sit at the foot of the page, below anything the shopper is reading.
import { useEffect, useState } from 'react';
import type { RenderAddToCart } from '@/types/add-to-cart';
import type { RenderWishlistButton } from '@/types/wishlist-button';
import type { Product } from '@/types/store-api';
import { useProducts, type ProductListParams } from '../api/get-products';
import { noteViewed } from '../lib/recently-viewed';
import { ProductGrid } from './product-grid';
import styles from './product-details.module.css';

const RECENT_SHOWN = 4;

interface Slots {
  renderAddToCart: RenderAddToCart;
  renderWishlistButton?: RenderWishlistButton;
}

function ProductSection({ id, title, products, renderAddToCart, renderWishlistButton }: { id: string; title: string; products: Product[] } & Slots) {
  if (products.length === 0) return null;
  return (
    <section className={styles.related} aria-labelledby={id}>
      <h2 id={id} className={styles.sectionTitle}>
        {title}
      </h2>
      <ProductGrid products={products} renderAddToCart={renderAddToCart} renderWishlistButton={renderWishlistButton} />
    </section>
  );
}

/** The listing that fetches the products in `ids`. */
export function productsByIdParams(ids: number[]): ProductListParams {
  return { include: ids.join(','), per_page: Math.max(ids.length, 1) };
}

/** The product's upsells, as its page lists them. */
export const upsellIds = (product: Product): number[] => product.extensions?.ferroshop?.upsell_ids ?? [];

/** The products in `ids`, in that order, that the shop still shows. */
function useProductsById(ids: number[]) {
  const { data } = useProducts(productsByIdParams(ids), { enabled: ids.length > 0 });
  const found = data?.products ?? [];
  return ids.map((id) => found.find((product) => product.id === id)).filter((product): product is Product => Boolean(product));
}

export function Upsells({ product, ...slots }: { product: Product } & Slots) {
  const products = useProductsById(upsellIds(product));
  return <ProductSection id="upsells-heading" title="You may also like…" products={products} {...slots} />;
}

export function RecentlyViewed({ product, ...slots }: { product: Product } & Slots) {
  const [ids, setIds] = useState<number[]>([]);
  useEffect(() => {
    // Noted once the page runs; the list shown is the one before this visit.
    setIds(noteViewed(product.id).filter((id) => id !== product.id).slice(0, RECENT_SHOWN));
  }, [product.id]);
  const products = useProductsById(ids);
  return <ProductSection id="recently-viewed-heading" title="Recently viewed products" products={products} {...slots} />;
}

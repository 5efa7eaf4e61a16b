// A product page: breadcrumbs, gallery, summary (title, price, short description,
// stock, buying controls, meta), the description tabs and related products.
import { useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { HydrateApart } from '@/components/hydrate-apart';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Price } from '@/components/ui/price';
import { StarRating } from '@/components/ui/star-rating';
import { paths } from '@/config/paths';
import { htmlToText } from '@/lib/html-text';
import type { RenderAddToCart } from '@/types/add-to-cart';
import type { RenderWishlistButton } from '@/types/wishlist-button';
import type { Product } from '@/types/store-api';
import { useCategories } from '../api/get-categories';
import { useVariationChoice } from '../hooks/use-variation-choice';
import { categoryTrail } from '../lib/category-trail';
import { AdditionalInformation, additionalInformationRows } from './additional-information';
import { ProductBadges } from './product-badges';
import styles from './product-details.module.css';
import { ProductGallery } from './product-gallery';
import { ProductMeta } from './product-meta';
import { ProductPurchase } from './product-purchase';
import { ProductTabs, type ProductTab } from './product-tabs';
import { RecentlyViewed, Upsells } from './more-products';
import { RelatedProducts } from './related-products';
import { StickyAddToCart } from './sticky-add-to-cart';
import { StockStatus } from './stock-status';

export function ProductDetails({
  product,
  renderAddToCart,
  renderPurchase = renderAddToCart,
  renderWishlistButton,
  reviews,
}: {
  product: Product;
  renderAddToCart: RenderAddToCart;
  /** The product's own buying controls, when they are more than its add-to-cart button (an express checkout beside it). */
  renderPurchase?: RenderAddToCart;
  /** The wishlist's heart, beside the product's details and on the product cards. */
  renderWishlistButton?: RenderWishlistButton;
  /** The reviews tab (the reviews feature's), when the product takes reviews. */
  reviews?: { title: string; content: ReactNode };
}) {
  const { search } = useLocation();
  const purchaseArea = useRef<HTMLDivElement>(null);
  const variationState = useVariationChoice(product);
  const { variation } = variationState;
  const name = htmlToText(product.name);
  const category = product.categories[0];
  const { data: categories } = useCategories();
  // The full trail once the category list is known; the product's own category until then.
  const trail = category ? categoryTrail(category.id, categories ?? []) : [];
  const crumbs: { name: string; slug: string }[] = trail.length > 0 ? trail : category ? [category] : [];

  const infoRows = additionalInformationRows(product);
  const tabs: ProductTab[] = [];
  if (product.description) {
    tabs.push({
      id: 'description',
      title: 'Description',
      // Product HTML is the shop's own content, written by its staff.
      content: <div className="prose" dangerouslySetInnerHTML={{ __html: product.description }} />,
    });
  }
  if (infoRows.length > 0) {
    tabs.push({ id: 'additional_information', title: 'Additional information', content: <AdditionalInformation rows={infoRows} /> });
  }
  if (reviews) tabs.push({ id: 'reviews', ...reviews });

  // Simple products show their stock under the price; a variable product shows the
  // chosen variation's next to the selects instead.
  const showStock = product.type === 'simple';

  return (
    <div className={`container ${styles.page}`}>
      <Breadcrumbs
        crumbs={[
          { label: 'Home', to: paths.home() },
          ...crumbs.map((c) => ({ label: htmlToText(c.name), to: paths.category(c.slug) })),
          { label: name },
        ]}
      />

      <div className={styles.layout}>
        <HydrateApart name="product-gallery">
          <div className={styles.galleryColumn}>
            <ProductGallery images={product.images} variationImage={variation?.images[0]} name={name} />
            <ProductBadges product={product} />
          </div>
        </HydrateApart>

        <HydrateApart name="product-summary">
        <div className={styles.summary}>
          <h1 className={styles.title}>{name}</h1>
          {product.review_count > 0 && (
            <div className={`woocommerce-product-rating ${styles.rating}`}>
              <StarRating rating={Number.parseFloat(product.average_rating) || 0} />
              <a href="#reviews" className="woocommerce-review-link">
                ({product.review_count === 1 ? '1 customer review' : `${product.review_count} customer reviews`})
              </a>
            </div>
          )}
          <div data-testid="product-price">
            <Price prices={product.prices} size="lg" />
          </div>
          {product.short_description && (
            <div className={`prose ${styles.short}`} dangerouslySetInnerHTML={{ __html: product.short_description }} />
          )}
          {showStock && <StockStatus product={product} />}
          <div ref={purchaseArea}>
            <ProductPurchase product={product} variationState={variationState} renderAddToCart={renderPurchase} />
          </div>
          <div className={styles.metaRow}>
            <ProductMeta product={product} sku={variation?.sku || product.sku} />
            {renderWishlistButton?.({
              productId: product.id,
              productName: name,
              productType: product.type,
              variationId: variation?.id,
              needsChoice: product.type === 'variable' && !variation,
              placement: 'product',
            })}
          </div>
        </div>
        </HydrateApart>
      </div>

      {tabs.length > 0 && (
        <HydrateApart name="product-tabs">
          <section className={styles.details} aria-label="Product details">
            <ProductTabs tabs={tabs} search={search} />
          </section>
        </HydrateApart>
      )}

      {/* Not parts of their own: any of these may render nothing on the server, and a
          part put off must stand for exactly one element of the page (the product
          lists' cards are each one already). */}
      {product.type !== 'external' && (
        <StickyAddToCart product={product} variation={variation} trigger={purchaseArea} renderAddToCart={renderAddToCart} />
      )}
      <Upsells product={product} renderAddToCart={renderAddToCart} renderWishlistButton={renderWishlistButton} />
      <RelatedProducts product={product} renderAddToCart={renderAddToCart} renderWishlistButton={renderWishlistButton} />
      <RecentlyViewed product={product} renderAddToCart={renderAddToCart} renderWishlistButton={renderWishlistButton} />
    </div>
  );
}

export function ProductDetailsSkeleton() {
  return (
    <div className={`container ${styles.page}`} aria-busy="true" aria-label="Loading product">
      <div className={styles.layout}>
        <div className={styles.skeletonImage} />
        <div className={styles.summary}>
          <div className={styles.skeletonLine} />
          <div className={`${styles.skeletonLine} ${styles.skeletonShort}`} />
        </div>
      </div>
    </div>
  );
}

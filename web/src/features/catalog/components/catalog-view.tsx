// A catalogue listing (the shop, a category, a brand, search results): heading,
// result count, sort-by select, the product grid and pagination.
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Notice } from '@/components/ui/notice';
import type { RenderAddToCart } from '@/types/add-to-cart';
import { useProducts } from '../api/get-products';
import { parseListing, productListParams, PRODUCTS_PER_PAGE, type ListingScope } from '../lib/listing';
import { NO_PRODUCTS_FOUND } from '../lib/result-count';
import { CatalogOrdering } from './catalog-ordering';
import styles from './catalog-view.module.css';
import toolbar from './catalog-toolbar.module.css';
import { Pagination } from './pagination';
import { ProductGrid, ProductGridSkeleton } from './product-grid';
import { ResultCount } from './result-count';

export function CatalogView({
  heading,
  description,
  breadcrumbs,
  scope,
  renderAddToCart,
}: {
  heading: string;
  description?: string;
  breadcrumbs?: ReactNode;
  scope?: ListingScope;
  renderAddToCart: RenderAddToCart;
}) {
  const [searchParams] = useSearchParams();
  const listing = parseListing(searchParams);
  const { data, error, isPending, isPlaceholderData } = useProducts(productListParams(listing, scope));

  return (
    <div className={`container ${styles.page}`}>
      <header className={styles.header}>
        {breadcrumbs}
        <h1 className={styles.title}>{heading}</h1>
        {description && <p className={styles.description}>{description}</p>}
      </header>

      {error ? (
        <Notice tone="error">{error.message}</Notice>
      ) : isPending ? (
        <>
          <div className={toolbar.toolbar} aria-hidden="true">
            <span className={toolbar.count}>&nbsp;</span>
          </div>
          <ProductGridSkeleton />
        </>
      ) : data.products.length === 0 ? (
        <Notice tone="info">{NO_PRODUCTS_FOUND}</Notice>
      ) : (
        <div aria-busy={isPlaceholderData} className={isPlaceholderData ? styles.refreshing : undefined}>
          <div className={toolbar.toolbar}>
            <ResultCount total={data.total} perPage={PRODUCTS_PER_PAGE} page={listing.page} />
            <CatalogOrdering value={listing.orderby} />
          </div>
          <ProductGrid products={data.products} renderAddToCart={renderAddToCart} eagerImages={4} label={heading} />
          <Pagination page={listing.page} totalPages={data.totalPages} />
        </div>
      )}
    </div>
  );
}

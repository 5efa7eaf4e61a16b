// A catalogue listing (the shop, a category, a brand, search results): heading,
// filters (a sidebar on wide screens, a "Filters" dialog on phones) with chips for
// those in force, result count, sort-by select, the product grid and pagination.
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { HydrateApart } from '@/components/hydrate-apart';
import { Notice } from '@/components/ui/notice';
import { useMediaQueryOnceKnown } from '@/hooks/use-media-query';
import type { RenderAddToCart } from '@/types/add-to-cart';
import type { RenderWishlistButton } from '@/types/wishlist-button';
import { useProducts } from '../api/get-products';
import { useCatalogFilters } from '../hooks/use-catalog-filters';
import { parseListing, productListParams, PRODUCTS_PER_PAGE, type ListingScope } from '../lib/listing';
import { NO_PRODUCTS_FOUND } from '../lib/result-count';
import { CatalogOrdering } from './catalog-ordering';
import { FilterChips, filterChips } from './filter-chips';
import { FilterDrawer } from './filter-drawer';
import { FilterPanel } from './filter-panel';
import styles from './catalog-view.module.css';
import toolbar from './catalog-toolbar.module.css';
import { Pagination } from './pagination';
import { ProductGrid, ProductGridSkeleton } from './product-grid';
import { ResultCount } from './result-count';

/** From this width the filters sit in a sidebar beside the grid. */
const WIDE_LAYOUT = '(min-width: 1024px)';

export function CatalogView({
  heading,
  description,
  breadcrumbs,
  scope,
  renderAddToCart,
  renderWishlistButton,
}: {
  heading: string;
  description?: string;
  breadcrumbs?: ReactNode;
  scope?: ListingScope;
  renderAddToCart: RenderAddToCart;
  renderWishlistButton?: RenderWishlistButton;
}) {
  const [searchParams] = useSearchParams();
  const listing = parseListing(searchParams);
  const panel = useCatalogFilters(scope ?? {}, listing.search);
  const { data, error, isPending, isPlaceholderData } = useProducts(productListParams(listing, scope, panel.filters));
  // Unknown on the server and while hydrating: then both the sidebar and the Filters
  // button are in the page, and the stylesheet shows the one that fits the screen.
  const wide = useMediaQueryOnceKnown(WIDE_LAYOUT);
  const chips = filterChips(panel.filters, panel);
  const filterPanel = <FilterPanel {...panel} onChange={panel.setFilters} />;

  return (
    <div className={`container ${styles.page}`}>
      <header className={styles.header}>
        {breadcrumbs}
        <h1 className={styles.title}>{heading}</h1>
        {description && <p className={styles.description}>{description}</p>}
      </header>

      <div className={styles.layout}>
        {wide !== false && (
          <aside className={styles.sidebar} aria-labelledby="catalog-filters-heading">
            <h2 id="catalog-filters-heading" className={styles.sidebarTitle}>
              Filters
            </h2>
            <HydrateApart name="filters">{filterPanel}</HydrateApart>
          </aside>
        )}

        <div className={styles.results}>
          {wide !== true && (
            <div className={styles.filterBar}>
              <FilterDrawer active={chips.length}>{wide === false ? filterPanel : null}</FilterDrawer>
            </div>
          )}
          <FilterChips chips={chips} onChange={panel.setFilters} />

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
              {/* The cards' names are third-level headings under this one. */}
              <h2 className="visually-hidden">Products</h2>
              <div className={toolbar.toolbar}>
                <ResultCount total={data.total} perPage={PRODUCTS_PER_PAGE} page={listing.page} />
                <CatalogOrdering value={listing.orderby} />
              </div>
              <HydrateApart name="products">
                <ProductGrid products={data.products} renderAddToCart={renderAddToCart} renderWishlistButton={renderWishlistButton} eagerImages={4} label={heading} />
              </HydrateApart>
              <Pagination page={listing.page} totalPages={data.totalPages} />
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

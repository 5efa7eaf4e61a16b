// What a page is known to need, asked for before its first render. A render finds
// its data by rendering (see render.tsx), and each round renders the whole page
// again; asking at once for what the shell and the most visited pages always need
// leaves one render where there were three. Whatever this misses, the rounds still
// find: a guess here can cost a wasted call, never a wrong page.
import type { QueryClient } from '@tanstack/react-query';
import type { StaticHandlerContext } from 'react-router';
import { POPULAR_COUNT } from '@/app/routes/home';
import { getCartQueryOptions } from '@/features/cart/api/get-cart';
import { getBrandsQueryOptions } from '@/features/catalog/api/get-brands';
import { getCategoriesQueryOptions } from '@/features/catalog/api/get-categories';
import { getProductQueryOptions } from '@/features/catalog/api/get-product';
import { getProductsQueryOptions } from '@/features/catalog/api/get-products';
import { prefetchListing } from '@/features/catalog/api/prefetch-listing';
import { popularProductsParams } from '@/features/catalog/components/popular-products';
import { productsByIdParams, upsellIds } from '@/features/catalog/components/more-products';
import { relatedProductsParams } from '@/features/catalog/components/related-products';
import { getVariationFormQueryOptions } from '@/features/catalog/api/get-variation-form';
import { getWishlistQueryOptions } from '@/features/wishlist/api/get-wishlist';
import { getWishlistsQueryOptions } from '@/features/wishlist/api/get-wishlists';
import { pageFromSearch } from '@/features/wishlist/lib/wishlist-page';
import { getProductReviewsQueryOptions, reviewsPageOf } from '@/features/reviews/api/get-product-reviews';
import type { ListingScope } from '@/features/catalog/lib/listing';

export async function prefetchPage(queryClient: QueryClient, context: StaticHandlerContext): Promise<void> {
  // The shell: the header's cart, the menus' categories, the footer's brands.
  const asked: Promise<unknown>[] = [
    queryClient.prefetchQuery(getCartQueryOptions()),
    queryClient.prefetchQuery(getCategoriesQueryOptions()),
    queryClient.prefetchQuery(getBrandsQueryOptions()),
  ];
  const page = context.matches[context.matches.length - 1];
  if (page?.pathnameBase === '/' && page.route.index) {
    asked.push(queryClient.prefetchQuery(getProductsQueryOptions(popularProductsParams(POPULAR_COUNT))));
  } else if (page?.route.path === 'wishlist' || page?.route.path === 'wishlist/:key') {
    // The list and, for its owner's chooser, their lists.
    const key = page.params.key ?? 'default';
    asked.push(queryClient.prefetchQuery(getWishlistQueryOptions(key, pageFromSearch(context.location.search))));
    asked.push(queryClient.prefetchQuery(getWishlistsQueryOptions()));
  } else if (page?.route.path === 'product/:slug' && page.params.slug) {
    asked.push(prefetchProduct(queryClient, page.params.slug, reviewsPageOf(context.location.search, context.location.pathname)));
  } else {
    const scope = listingScope(page?.route.path, page?.params ?? {});
    if (scope) asked.push(prefetchListing(queryClient, new URLSearchParams(context.location.search), scope));
  }
  await Promise.all(asked);
}

/** A listing page's scope (see routes-table.tsx), or null for any other page. */
function listingScope(path: string | undefined, params: Record<string, string | undefined>): ListingScope | null {
  switch (path) {
    case 'shop':
      return {};
    case 'product-category/*': {
      // Nested category links: the last part is the slug.
      const slug = (params['*'] ?? '').split('/').filter(Boolean).pop();
      return slug ? { category: slug } : null;
    }
    case 'brand/:slug':
      return params.slug ? { brand: params.slug } : null;
    default:
      return null;
  }
}

/** The product, then what its page shows beside it: its options, upsells, related products and reviews. */
async function prefetchProduct(queryClient: QueryClient, slug: string, reviewsPage: number) {
  const product = await queryClient.fetchQuery(getProductQueryOptions(slug)).catch(() => null);
  if (!product) return;
  const asked: Promise<unknown>[] = [];
  const related = relatedProductsParams(product);
  if (related) asked.push(queryClient.prefetchQuery(getProductsQueryOptions(related)));
  const upsells = upsellIds(product);
  if (upsells.length > 0) asked.push(queryClient.prefetchQuery(getProductsQueryOptions(productsByIdParams(upsells))));
  if (product.type === 'variable') asked.push(queryClient.prefetchQuery(getVariationFormQueryOptions(product.id)));
  asked.push(queryClient.prefetchQuery(getProductReviewsQueryOptions(product.id, reviewsPage)));
  await Promise.all(asked);
}

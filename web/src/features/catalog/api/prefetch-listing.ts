// What a listing page (shop, search, category, brand) asks for, fetched ahead: the
// server's render uses it to render the page once instead of finding its data over
// several renders. It asks for exactly what CatalogView and useCatalogFilters ask
// for, built by the same functions, so the answers land under the same keys.
import type { QueryClient } from '@tanstack/react-query';
import { filterQuery, parseFilters } from '../lib/filters';
import { parseListing, productListParams, type ListingScope } from '../lib/listing';
import { getAttributesQueryOptions, getAttributeTermsQueryOptions } from './get-attributes';
import { collectionDataParams, getCollectionDataQueryOptions } from './get-collection-data';
import { getProductsQueryOptions } from './get-products';

export async function prefetchListing(queryClient: QueryClient, searchParams: URLSearchParams, scope: ListingScope) {
  const listing = parseListing(searchParams);
  const filters = parseFilters(searchParams);
  const products = queryClient.prefetchQuery(getProductsQueryOptions(productListParams(listing, scope, filters)));
  const attributes = await queryClient.fetchQuery(getAttributesQueryOptions()).catch(() => []);
  const query = { ...filterQuery(filters, scope), ...(listing.search ? { search: listing.search } : {}) };
  const counts = collectionDataParams(
    query,
    attributes.map((attribute) => attribute.taxonomy),
  );
  await Promise.all([
    products,
    ...attributes.map((attribute) => queryClient.prefetchQuery(getAttributeTermsQueryOptions(attribute.id))),
    queryClient.prefetchQuery(getCollectionDataQueryOptions(counts)),
  ]);
}

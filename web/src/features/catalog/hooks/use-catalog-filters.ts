// A listing's filters: read from the address, written back to it (a new history
// entry, so the back button undoes a choice), and what the panel offers and counts.
import { useSearchParams } from 'react-router';
import { settings } from '@/config/settings';
import type { PriceFormat } from '@/lib/format-price';
import type { Taxonomy } from '@/types/store-api';
import { useAttributesWithTerms } from '../api/get-attributes';
import { useBrands } from '../api/get-brands';
import { useCategories } from '../api/get-categories';
import { collectionDataParams, useCollectionData } from '../api/get-collection-data';
import { filterQuery, parseFilters, withFilters, type CatalogFilters, type FilterScope } from '../lib/filters';

/** On a category page its subcategories; elsewhere the top-level categories. */
function offeredCategories(all: Taxonomy[], scope: FilterScope): Taxonomy[] {
  if (scope.category) {
    const current = all.find((category) => category.slug === scope.category);
    return current ? all.filter((category) => category.parent === current.id) : [];
  }
  return all.filter((category) => category.parent === 0 && category.slug !== 'uncategorized');
}

export function useCatalogFilters(scope: FilterScope, search: string) {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = parseFilters(searchParams);
  const { data: allCategories = [] } = useCategories();
  const { data: allBrands = [] } = useBrands();
  const attributes = useAttributesWithTerms();
  const query = { ...filterQuery(filters, scope), ...(search ? { search } : {}) };
  const { data } = useCollectionData(
    collectionDataParams(
      query,
      attributes.map((attribute) => attribute.taxonomy),
    ),
  );
  const shop = settings.currency;
  const format: PriceFormat = data?.price_range ?? {
    currency_minor_unit: shop.minor_unit,
    currency_decimal_separator: shop.decimal_separator,
    currency_thousand_separator: shop.thousand_separator,
    currency_prefix: shop.prefix,
    currency_suffix: shop.suffix,
  };

  function setFilters(next: CatalogFilters) {
    setSearchParams((current) => withFilters(current, next), { preventScrollReset: true });
  }

  return {
    filters,
    setFilters,
    data,
    categories: offeredCategories(allCategories, scope),
    brands: scope.brand ? [] : allBrands,
    attributes,
    format,
  };
}

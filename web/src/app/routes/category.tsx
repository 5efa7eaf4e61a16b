// /product-category/{slug} (or a nested path ending in the slug): one category's products.
import { useParams } from 'react-router';
import { Breadcrumbs, type Crumb } from '@/components/ui/breadcrumbs';
import { paths } from '@/config/paths';
import { categoryTrail } from '@/features/catalog/lib/category-trail';
import { useCategories } from '@/features/catalog/api/get-categories';
import { CatalogView } from '@/features/catalog/components/catalog-view';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { htmlToText } from '@/lib/html-text';
import type { Taxonomy } from '@/types/store-api';
import { renderAddToCart } from '../add-to-cart-slot';
import { renderWishlistButton } from '../wishlist-slot';
import { NOT_FOUND_TITLE, NotFoundPage } from './not-found';

/** Home › parent categories › this category. */
function categoryCrumbs(category: Taxonomy, all: Taxonomy[]): Crumb[] {
  const ancestors = categoryTrail(category.id, all).slice(0, -1);
  return [
    { label: 'Home', to: paths.home() },
    ...ancestors.map((ancestor) => ({ label: htmlToText(ancestor.name), to: paths.category(ancestor.slug) })),
    { label: htmlToText(category.name) },
  ];
}

export default function CategoryRoute() {
  const splat = useParams()['*'] ?? '';
  const slug = splat.split('/').filter(Boolean).pop() ?? '';
  const { data: categories, isPending } = useCategories();
  const category = categories?.find((candidate) => candidate.slug === slug);
  const missing = !slug || (!isPending && !category);
  // The page's own title wins over the not-found page's, whose effect runs first.
  useDocumentTitle(missing ? NOT_FOUND_TITLE : category ? htmlToText(category.name) : undefined);

  if (missing) return <NotFoundPage />;

  return (
    <CatalogView
      heading={category ? htmlToText(category.name) : '\u00a0'}
      description={category?.description ? htmlToText(category.description) : undefined}
      breadcrumbs={category && categories ? <Breadcrumbs crumbs={categoryCrumbs(category, categories)} /> : undefined}
      scope={{ category: slug }}
      renderAddToCart={renderAddToCart} renderWishlistButton={renderWishlistButton}
    />
  );
}

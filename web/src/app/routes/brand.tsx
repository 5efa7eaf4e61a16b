// /brand/{slug}: one brand's products.
import { useParams } from 'react-router';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { paths } from '@/config/paths';
import { useBrands } from '@/features/catalog/api/get-brands';
import { CatalogView } from '@/features/catalog/components/catalog-view';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { htmlToText } from '@/lib/html-text';
import { renderAddToCart } from '../add-to-cart-slot';
import { renderWishlistButton } from '../wishlist-slot';
import { NOT_FOUND_TITLE, NotFoundPage } from './not-found';

export default function BrandRoute() {
  const slug = useParams().slug ?? '';
  const { data: brands, isPending } = useBrands();
  const brand = brands?.find((candidate) => candidate.slug === slug);
  const name = brand ? htmlToText(brand.name) : undefined;
  const missing = !isPending && !brand;
  // The page's own title wins over the not-found page's, whose effect runs first.
  useDocumentTitle(missing ? NOT_FOUND_TITLE : name);

  if (missing) return <NotFoundPage />;

  return (
    <CatalogView
      heading={name ?? '\u00a0'}
      description={brand?.description ? htmlToText(brand.description) : undefined}
      breadcrumbs={
        name ? (
          <Breadcrumbs crumbs={[{ label: 'Home', to: paths.home() }, { label: 'Brands', to: paths.brands() }, { label: name }]} />
        ) : undefined
      }
      scope={{ brand: slug }}
      renderAddToCart={renderAddToCart} renderWishlistButton={renderWishlistButton}
    />
  );
}

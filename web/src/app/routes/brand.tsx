// /brand/{slug}: one brand's products.
import { useParams } from 'react-router';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { paths } from '@/config/paths';
import { useBrands } from '@/features/catalog/api/get-brands';
import { CatalogView } from '@/features/catalog/components/catalog-view';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { htmlToText } from '@/lib/html-text';
import { renderAddToCart } from '../add-to-cart-slot';
import { NotFoundPage } from './not-found';

export default function BrandRoute() {
  const slug = useParams().slug ?? '';
  const { data: brands, isPending } = useBrands();
  const brand = brands?.find((candidate) => candidate.slug === slug);
  const name = brand ? htmlToText(brand.name) : undefined;
  useDocumentTitle(name);

  if (!isPending && !brand) return <NotFoundPage />;

  return (
    <CatalogView
      heading={name ?? '\u00a0'}
      description={brand?.description ? htmlToText(brand.description) : undefined}
      breadcrumbs={
        name ? (
          <Breadcrumbs crumbs={[{ label: 'Home', to: paths.home() }, { label: 'Brands' }, { label: name }]} />
        ) : undefined
      }
      scope={{ brand: slug }}
      renderAddToCart={renderAddToCart}
    />
  );
}

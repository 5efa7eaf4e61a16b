// /shop: every product, search results (?s=) or products on sale (?on_sale=true).
import { useSearchParams } from 'react-router';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { paths } from '@/config/paths';
import { CatalogView } from '@/features/catalog/components/catalog-view';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { renderAddToCart } from '../add-to-cart-slot';
import { renderWishlistButton } from '../wishlist-slot';

export function shopHeading(search: string, onSale: boolean): string {
  if (search) return `Search results: \u201c${search}\u201d`;
  return onSale ? 'On sale' : 'Shop';
}

export default function ShopRoute() {
  const [searchParams] = useSearchParams();
  const search = (searchParams.get('s') ?? '').trim();
  const heading = shopHeading(search, searchParams.get('on_sale') === 'true');
  useDocumentTitle(heading);

  return (
    <CatalogView
      heading={heading}
      breadcrumbs={<Breadcrumbs crumbs={[{ label: 'Home', to: paths.home() }, { label: heading }]} />}
      renderAddToCart={renderAddToCart} renderWishlistButton={renderWishlistButton}
    />
  );
}

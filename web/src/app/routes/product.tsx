// /product/{slug}: the product page, with the reviews feature's tab. The tab title
// becomes "{Product} – {Shop}".
import { useParams } from 'react-router';
import { Notice } from '@/components/ui/notice';
import { useProduct } from '@/features/catalog/api/get-product';
import { ProductDetails, ProductDetailsSkeleton } from '@/features/catalog/components/product-details';
import { reviewsTabTitle } from '@/features/reviews/lib/tab-title';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { htmlToText } from '@/lib/html-text';
import { renderAddToCart } from '../add-to-cart-slot';
import { renderWishlistButton } from '../wishlist-slot';
import { renderProductPurchase } from '../product-purchase';
import { ReviewsSlot } from '../reviews-slot';
import { NOT_FOUND_TITLE, NotFoundPage } from './not-found';

export default function ProductRoute() {
  const slug = useParams().slug ?? '';
  const { data: product, isPending, error } = useProduct(slug);
  // The page's own title wins over the not-found page's, whose effect runs first.
  useDocumentTitle(product ? htmlToText(product.name) : product === null ? NOT_FOUND_TITLE : undefined);

  if (isPending) return <ProductDetailsSkeleton />;
  if (error) {
    return (
      <div className="container" style={{ paddingBlock: 'var(--space-6)' }}>
        <Notice tone="error">{error.message}</Notice>
      </div>
    );
  }
  if (!product) return <NotFoundPage />;
  // Keyed by product so moving to a related product starts with a fresh choice and gallery.
  const reviews = { title: reviewsTabTitle(product.review_count), content: <ReviewsSlot productId={product.id} productName={htmlToText(product.name)} /> };
  return <ProductDetails key={product.id} product={product} renderAddToCart={renderAddToCart} renderWishlistButton={renderWishlistButton} renderPurchase={renderProductPurchase} reviews={reviews} />;
}

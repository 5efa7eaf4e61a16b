// One product in a grid: square image with badges, category, name, price and the
// card's action (add to cart, or a link: "Select options", "Read more", external).
import { Link } from '@/components/ui/link';
import { ButtonLink, ExternalButtonLink } from '@/components/ui/button';
import { Price } from '@/components/ui/price';
import { ProductImage } from '@/components/ui/product-image';
import { paths } from '@/config/paths';
import { htmlToText } from '@/lib/html-text';
import type { RenderAddToCart } from '@/types/add-to-cart';
import type { RenderWishlistButton } from '@/types/wishlist-button';
import type { Product } from '@/types/store-api';
import { cardAction } from '../lib/card-action';
import { ProductBadges } from './product-badges';
import styles from './product-card.module.css';

export const CARD_IMAGE_SIZES = '(min-width: 1024px) 300px, (min-width: 768px) 33vw, 50vw';

export function ProductCard({
  product,
  renderAddToCart,
  renderWishlistButton,
  eagerImage = false,
  priorityImage = false,
}: {
  product: Product;
  renderAddToCart: RenderAddToCart;
  /** The wishlist's heart over the image, when the page offers one. */
  renderWishlistButton?: RenderWishlistButton;
  eagerImage?: boolean;
  /** The first card of a listing: likely the page's largest image. */
  priorityImage?: boolean;
}) {
  const name = htmlToText(product.name);
  const href = paths.product(product.slug);
  const action = cardAction(product);
  const category = product.categories[0];

  return (
    <article className={styles.card} aria-label={name}>
      {/* The title link is the card's one link for keyboard and screen-reader users. */}
      <Link to={href} className={styles.media} tabIndex={-1} aria-hidden="true">
        <ProductImage image={product.images[0]} sizes={CARD_IMAGE_SIZES} eager={eagerImage} priority={priorityImage} />
        <ProductBadges product={product} />
      </Link>
      {renderWishlistButton?.({ productId: product.id, productName: name, productType: product.type, placement: 'card' })}
      <div className={styles.body}>
        {category && <p className={styles.category}>{htmlToText(category.name)}</p>}
        <h3 className={styles.title}>
          <Link to={href}>{name}</Link>
        </h3>
        <Price prices={product.prices} size="sm" />
      </div>
      <div className={styles.action}>
        {action.kind === 'add-to-cart' ? (
          // The original shop's add-to-cart form, posted to this page when scripts are off.
          <form method="post" className={styles.form} onSubmit={(event) => event.preventDefault()}>
            <input type="hidden" name="quantity" value={Math.max(1, product.add_to_cart.minimum)} />
            {renderAddToCart({
              productId: product.id,
              productName: name,
              quantity: Math.max(1, product.add_to_cart.minimum),
              label: htmlToText(product.add_to_cart.description) || `Add “${name}” to your cart`,
              size: 'sm',
              submitsProduct: product.id,
            })}
          </form>
        ) : action.external ? (
          <ExternalButtonLink href={action.href} variant="secondary" size="sm">
            {htmlToText(action.text)}
          </ExternalButtonLink>
        ) : (
          <ButtonLink
            to={action.href}
            variant="secondary"
            size="sm"
            aria-label={product.add_to_cart.description ? htmlToText(product.add_to_cart.description) : undefined}
          >
            {action.text}
          </ButtonLink>
        )}
      </div>
    </article>
  );
}

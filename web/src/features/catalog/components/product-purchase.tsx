// The buying part of a product page: variation selects (variable products), the
// chosen variation's price and stock, quantity and the add-to-cart button; or the
// external product's button to its own shop.
import { useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { ExternalButtonLink, buttonClass } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { Price } from '@/components/ui/price';
import { QuantityInput } from '@/components/ui/quantity-input';
import { htmlToText } from '@/lib/html-text';
import type { RenderAddToCart } from '@/types/add-to-cart';
import type { Product } from '@/types/store-api';
import type { VariationChoiceState } from '../hooks/use-variation-choice';
import { StockStatus } from './stock-status';
import styles from './product-purchase.module.css';
import { VariationOptions } from './variation-options';

export const NO_MATCHING_VARIATION =
  'Sorry, no products matched your selection. Please choose a different combination.';

export function ProductPurchase({
  product,
  variationState,
  renderAddToCart,
}: {
  product: Product;
  variationState: VariationChoiceState;
  renderAddToCart: RenderAddToCart;
}) {
  const name = htmlToText(product.name);

  if (product.type === 'external') {
    return product.add_to_cart.url ? (
      <div className={styles.purchase}>
        <ExternalButtonLink href={product.add_to_cart.url} size="lg">
          {htmlToText(product.add_to_cart.text) || 'Buy product'}
          <Icon name="external-link" size={18} />
        </ExternalButtonLink>
      </div>
    ) : null;
  }

  if (product.type === 'variable') {
    return <VariablePurchase product={product} name={name} state={variationState} renderAddToCart={renderAddToCart} />;
  }

  if (product.type !== 'simple' || !product.is_purchasable || !product.is_in_stock) return null;

  return (
    <ProductForm>
      <QuantityAndButton
        limits={product.add_to_cart}
        name={name}
        soldIndividually={product.sold_individually}
        renderButton={(quantity) =>
          renderAddToCart({ productId: product.id, productName: name, quantity, size: 'lg', submitsProduct: product.id })
        }
      />
    </ProductForm>
  );
}

/**
 * The original shop's product form, posted to the product's page: with scripts the
 * button adds through the cart's call and the form never submits; without them the
 * page takes the form (and a variable product's options are chosen with a GET of the
 * same form, which the page reads back as its preselected choice).
 */
function ProductForm({ children, className }: { children: ReactNode; className?: string }) {
  const { pathname } = useLocation();
  return (
    <form method="post" action={pathname} className={className} onSubmit={(event) => event.preventDefault()}>
      {children}
    </form>
  );
}

function VariablePurchase({
  product,
  name,
  state,
  renderAddToCart,
}: {
  product: Product;
  name: string;
  state: VariationChoiceState;
  renderAddToCart: RenderAddToCart;
}) {
  const { variation } = state;
  const buyable = Boolean(variation && variation.is_purchasable && variation.is_in_stock);

  return (
    <ProductForm className={styles.stack}>
      <VariationOptions state={state} variations={product.variations} />
      <noscript>
        <button type="submit" formMethod="get" className={buttonClass({ variant: 'secondary' }, styles.choose)}>
          Choose options
        </button>
      </noscript>
      <div className={styles.variation} aria-live="polite" data-testid="variation-details">
        {state.unmatched && <p className={styles.unavailable}>{NO_MATCHING_VARIATION}</p>}
        {variation && (
          <>
            <Price prices={variation.prices} size="lg" showRange={false} />
            <StockStatus product={variation} />
          </>
        )}
      </div>
      <QuantityAndButton
        limits={variation?.add_to_cart ?? product.add_to_cart}
        name={name}
        soldIndividually={product.sold_individually || Boolean(variation?.sold_individually)}
        renderButton={(quantity) =>
          renderAddToCart({
            productId: variation?.id ?? product.id,
            variationId: variation?.id,
            attributes: state.fields,
            productName: name,
            quantity,
            disabled: !buyable,
            size: 'lg',
            submitsProduct: product.id,
          })
        }
      />
    </ProductForm>
  );
}

function QuantityAndButton({
  limits,
  name,
  soldIndividually,
  renderButton,
}: {
  limits: Product['add_to_cart'];
  name: string;
  /** One to an order: no quantity to choose. */
  soldIndividually: boolean;
  renderButton: (quantity: number) => ReactNode;
}) {
  const min = Math.max(1, limits.minimum);
  const [quantity, setQuantity] = useState(min);
  if (soldIndividually) {
    return (
      <div className={styles.purchase}>
        <input type="hidden" name="quantity" value="1" />
        {renderButton(1)}
      </div>
    );
  }
  return (
    <div className={styles.purchase}>
      <QuantityInput
        label={`${name} quantity`}
        value={quantity}
        min={min}
        max={limits.maximum}
        step={Math.max(1, limits.multiple_of)}
        name="quantity"
        onChange={setQuantity}
      />
      {renderButton(quantity)}
    </div>
  );
}

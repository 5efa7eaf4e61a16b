// A price as the shop shows it: a range ("$42.00 – $45.00") for variable products,
// the regular price struck through before the sale price, or one amount.
import { formatPrice } from '@/lib/format-price';
import type { ProductPrices } from '@/types/store-api';
import styles from './price.module.css';

/** Compares integer strings without floats. */
function isBelow(amount: string, than: string): boolean {
  try {
    return BigInt(amount) < BigInt(than);
  } catch {
    return false;
  }
}

export function isDiscounted(prices: Pick<ProductPrices, 'price' | 'regular_price'>): boolean {
  return prices.regular_price !== '' && prices.price !== '' && isBelow(prices.price, prices.regular_price);
}

export function Price({
  prices,
  size = 'md',
  showRange = true,
}: {
  prices: ProductPrices;
  size?: 'sm' | 'md' | 'lg';
  /** Show price_range when the prices carry one (a variable product's parent). */
  showRange?: boolean;
}) {
  const className = `${styles.price} ${styles[size]}`;
  const range = showRange ? prices.price_range : null;

  if (range && range.min_amount !== range.max_amount) {
    return (
      <span className={className}>
        {formatPrice(range.min_amount, prices)}
        <span aria-hidden="true"> – </span>
        <span className="visually-hidden"> to </span>
        {formatPrice(range.max_amount, prices)}
      </span>
    );
  }

  const amount = range ? range.min_amount : prices.price;
  if (amount === '') return null;

  if (!range && isDiscounted(prices)) {
    return (
      <span className={className}>
        <del className={styles.regular}>
          <span className="visually-hidden">Original price was: </span>
          {formatPrice(prices.regular_price, prices)}
        </del>{' '}
        <ins className={styles.sale}>
          <span className="visually-hidden">Current price is: </span>
          {formatPrice(prices.price, prices)}
        </ins>
      </span>
    );
  }

  return <span className={className}>{formatPrice(amount, prices)}</span>;
}

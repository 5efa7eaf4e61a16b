// "In stock", "Only 3 left in stock", "Out of stock" or "Available on backorder".
import type { Product } from '@/types/store-api';
import { stockState, stockStatusText } from '../lib/stock-status';
import styles from './stock-status.module.css';

export function StockStatus({ product }: { product: Pick<Product, 'is_in_stock' | 'is_on_backorder' | 'low_stock_remaining'> }) {
  return (
    <p className={`${styles.stock} ${styles[stockState(product)]}`} data-testid="stock-status">
      {stockStatusText(product)}
    </p>
  );
}

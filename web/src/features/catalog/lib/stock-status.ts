// The stock line under a product's price.

import type { Product } from '@/types/store-api';

export type StockState = 'in-stock' | 'low-stock' | 'out-of-stock' | 'on-backorder';

type StockFields = Pick<Product, 'is_in_stock' | 'is_on_backorder' | 'low_stock_remaining'>;

export function stockState(product: StockFields): StockState {
  // The Store API reports backordered products as in stock, so backorder is checked first.
  if (product.is_on_backorder) return 'on-backorder';
  if (!product.is_in_stock) return 'out-of-stock';
  if (product.low_stock_remaining !== null && product.low_stock_remaining > 0) return 'low-stock';
  return 'in-stock';
}

export function stockStatusText(product: StockFields): string {
  switch (stockState(product)) {
    case 'on-backorder':
      return 'Available on backorder';
    case 'out-of-stock':
      return 'Out of stock';
    case 'low-stock':
      return `Only ${product.low_stock_remaining} left in stock`;
    case 'in-stock':
      return 'In stock';
  }
}

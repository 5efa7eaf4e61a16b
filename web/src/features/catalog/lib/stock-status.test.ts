import { describe, expect, it } from 'vitest';
import { stockStatusText } from './stock-status';

const stock = { is_in_stock: true, is_on_backorder: false, low_stock_remaining: null };

describe('the stock line', () => {
  it('says in stock when stock is not low', () => {
    expect(stockStatusText(stock)).toBe('In stock');
  });

  it('names how many are left when stock is low', () => {
    expect(stockStatusText({ ...stock, low_stock_remaining: 3 })).toBe('Only 3 left in stock');
  });

  it('says out of stock when the product cannot be bought', () => {
    expect(stockStatusText({ ...stock, is_in_stock: false })).toBe('Out of stock');
  });

  it('says available on backorder even though the Store API also calls it in stock', () => {
    expect(stockStatusText({ ...stock, is_on_backorder: true })).toBe('Available on backorder');
  });
});

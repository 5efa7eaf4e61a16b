import { screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent } from '@/test/events';
import { renderWithApp } from '@/test/render';
import type { Wishlist, WishlistItem } from '../api/get-wishlist';
import { WishlistTable } from './wishlist-table';

const prices = {
  price: '1400',
  regular_price: '1400',
  sale_price: '1400',
  price_range: null,
  currency_code: 'USD',
  currency_symbol: '$',
  currency_minor_unit: 2,
  currency_decimal_separator: '.',
  currency_thousand_separator: ',',
  currency_prefix: '$',
  currency_suffix: '',
};

const item = (id: number, name: string, extra: Partial<WishlistItem> = {}): WishlistItem => ({
  item_id: id,
  product_id: id * 10,
  variation_id: 0,
  name,
  permalink: `http://shop.test/product/${name.toLowerCase()}/`,
  image: null,
  prices: prices as WishlistItem['prices'],
  price_html: '<span class="amount">$14.00</span>',
  stock: { is_in_stock: true, text: 'In stock' },
  variation: [],
  type: 'simple',
  is_purchasable: true,
  added_at: '2026-11-29T10:00:00',
  ...extra,
});

const list = (isOwner: boolean, pages = 1): Wishlist => ({
  ID: 7,
  title: 'Default wishlist',
  status: 'share',
  share_key: 'abc',
  url: 'http://shop.test/wishlist/abc/',
  is_owner: isOwner,
  items: [item(1, 'Candle'), item(2, 'Hoodie', { type: 'variable' })],
  total: 2,
  page: 1,
  per_page: 10,
  pages,
});

describe('the wishlist table', () => {
  afterEach(() => vi.restoreAllMocks());

  it('refuses bulk actions with nothing ticked or no action, in an alert and in the page', () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const onAction = vi.fn(async () => undefined);
    renderWithApp(<WishlistTable list={list(true)} page={1} pathname="/wishlist/" onAction={onAction} />);
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(alert).toHaveBeenCalledWith('No items or actions are selected.');
    expect(screen.getByRole('alert').textContent).toBe('No items or actions are selected.');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Candle”' }));
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(alert).toHaveBeenCalledTimes(2);
    fireEvent.click(screen.getByRole('button', { name: 'Add Selected to Cart' }));
    expect(onAction).toHaveBeenCalledWith({ action: 'add_to_cart_selected', itemIds: [1] });
  });

  it('sends the chosen bulk action with the ticked items, select-all ticking every row', () => {
    const onAction = vi.fn(async () => undefined);
    renderWithApp(<WishlistTable list={list(true)} page={1} pathname="/wishlist/" onAction={onAction} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all for bulk action' }));
    fireEvent.change(screen.getByLabelText('Bulk action'), { target: { value: 'remove_selected' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onAction).toHaveBeenCalledWith({ action: 'remove_selected', itemIds: [1, 2] });
  });

  it('adds or removes one row by its item id; a parent variable product goes to its page', () => {
    const onAction = vi.fn(async () => undefined);
    renderWithApp(<WishlistTable list={list(true)} page={1} pathname="/wishlist/" onAction={onAction} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add to Cart: Candle' }));
    expect(onAction).toHaveBeenLastCalledWith({ action: 'add_to_cart_single', itemId: 1 });
    expect(screen.getByRole('link', { name: 'Select options' }).getAttribute('href')).toBe('/product/hoodie/');
    expect(screen.getAllByText('November 29, 2026')[0]!.getAttribute('datetime')).toBe('2026-11-29 10:00:00');
  });

  it('shows a stranger the list read-only', () => {
    renderWithApp(<WishlistTable list={list(false)} page={1} pathname="/wishlist/abc/" onAction={vi.fn()} />);
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Apply' })).toBeNull();
    screen.getByRole('button', { name: 'Add All to Cart' });
  });

  it('pages with ?wl_paged', () => {
    renderWithApp(<WishlistTable list={list(true, 3)} page={2} pathname="/wishlist/" onAction={vi.fn()} />);
    expect(screen.getByRole('link', { name: 'Previous Page' }).getAttribute('href')).toBe('/wishlist/');
    expect(screen.getByRole('link', { name: 'Next Page' }).getAttribute('href')).toBe('/wishlist/?wl_paged=3');
    screen.getByText('2/3');
  });
});

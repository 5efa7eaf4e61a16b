import { screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyRenderSettings, DEFAULT_SETTINGS, settings } from '@/config/settings';
import { fireEvent } from '@/test/events';
import { stubShop } from '@/test/fetch-stub';
import { jsonResponse, renderWithApp } from '@/test/render';
import { EMPTY_OWNER_TEXT, NOT_FOUND_TEXT, WishlistPage } from './wishlist-page';

const KEY = 'ti_wishlist_data_page';

const list = (items: unknown[]) => ({
  ID: 7,
  title: 'Default wishlist',
  status: 'share',
  share_key: 'abc',
  url: 'http://shop.test/wishlist/abc/',
  is_owner: true,
  items,
  total: items.length,
  page: 1,
  per_page: 10,
  pages: 1,
});

const candle = {
  item_id: 3,
  product_id: 30,
  variation_id: 0,
  name: 'Candle',
  permalink: 'http://shop.test/product/candle/',
  image: null,
  prices: {},
  price_html: '$14.00',
  stock: { is_in_stock: true, text: 'In stock' },
  variation: [],
  type: 'simple',
  is_purchasable: true,
  added_at: '2026-11-29T10:00:00',
};

describe('the wishlist page', () => {
  const before = { ...settings };
  beforeEach(() => applyRenderSettings({ ...DEFAULT_SETTINGS, wishlist: { ...DEFAULT_SETTINGS.wishlist, hash_key: KEY, nonce: 'n1' } }));
  afterEach(() => applyRenderSettings(before));

  it('says so for an unknown key', async () => {
    stubShop(({ url }) =>
      url.includes('/wishlists/0123') ? jsonResponse({ code: 'wishlist_not_found', message: NOT_FOUND_TEXT, data: { status: 404 } }, { status: 404 }) : undefined,
    );
    renderWithApp(<WishlistPage listKey="0123" page={1} pathname="/wishlist/0123/" onCartChanged={vi.fn()} />);
    await screen.findByText(NOT_FOUND_TEXT);
    screen.getByRole('link', { name: 'Return To Shop' });
  });

  it('shows an empty list to its owner with the way back to the shop', async () => {
    stubShop(({ url }) => {
      if (url.includes('/wishlists/default')) return jsonResponse({ ...list([]), ID: 0 });
      if (url.endsWith('/wishlists')) return jsonResponse([]);
      return undefined;
    });
    renderWithApp(<WishlistPage listKey={undefined} page={1} pathname="/wishlist/" onCartChanged={vi.fn()} />);
    await screen.findByText(EMPTY_OWNER_TEXT);
  });

  it('removes an item, shows the server’s message and stores its data; cart calls refresh the cart', async () => {
    let items = [candle];
    const { sent } = stubShop(({ url, method }) => {
      if (url.includes('/wishlists/default')) return jsonResponse(list(items));
      if (url.endsWith('/wishlists')) return jsonResponse([{ ID: 7, title: 'Default wishlist', status: 'share', share_key: 'abc', url: '', count: items.length, is_default: true }]);
      if (method === 'POST' && url === '/?wc-ajax=tinvwl') {
        items = [];
        return jsonResponse({
          status: true,
          action: 'add_to_cart_single',
          msg: '<div class="tinv-modal"><div class="tinv-txt">&ldquo;Candle&rdquo; has been added to your cart.</div></div>',
          wishlists_data: { products: {}, counter: 0 },
        });
      }
      return undefined;
    });
    const onCartChanged = vi.fn();
    renderWithApp(<WishlistPage listKey={undefined} page={1} pathname="/wishlist/" onCartChanged={onCartChanged} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add to Cart: Candle' }));
    await screen.findByText('“Candle” has been added to your cart.');
    const call = sent.find((request) => request.method === 'POST')!;
    expect(call.body).toBe('tinvwl-action=add_to_cart_single&tinvwl-security=n1&tinvwl-sharekey=abc&tinvwl-paged=1&tinvwl-per-page=10&tinvwl-product_id=3');
    expect(call.headers.get('X-WP-Nonce')).toBe('n1');
    expect(onCartChanged).toHaveBeenCalled();
    expect(localStorage.getItem(KEY)).toBe(JSON.stringify({ products: {}, counter: 0 }));
    await waitFor(() => expect(screen.getByText(EMPTY_OWNER_TEXT)).toBeTruthy());
  });
});

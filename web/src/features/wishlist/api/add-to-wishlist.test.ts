import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyRenderSettings, DEFAULT_SETTINGS, settings } from '@/config/settings';
import { planAnswer } from '../lib/add-answer';
import { addAddress, addToWishlist, addToWishlistPayload } from './add-to-wishlist';
import { tableActionFields } from './run-wishlist-action';
import { wishlistAjax } from './wishlist-ajax';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('the wishlist’s calls', () => {
  const before = { ...settings };
  beforeEach(() => applyRenderSettings({ ...DEFAULT_SETTINGS, wishlist: { ...DEFAULT_SETTINGS.wishlist, nonce: 'rest-nonce' } }));
  afterEach(() => applyRenderSettings(before));

  it('posts the add to the page’s own address, without its query', () => {
    expect(addAddress('http://shop.test/product/hoodie/?attribute_pa_color=blue#reviews')).toBe('http://shop.test/product/hoodie/');
  });

  it('sends the original’s fields', () => {
    const body = addToWishlistPayload({ productId: 40, productType: 'variable', variationId: 41, action: 'addto', wishlistId: 9 }, 'http://shop.test/product/hoodie/');
    expect(Object.fromEntries(body.entries())).toEqual({
      'form[variation_id]': '41',
      tinv_wishlist_id: '9',
      tinv_wishlist_name: '',
      product_type: 'variable',
      product_id: '40',
      product_variation: '41',
      product_action: 'addto',
      redirect: 'http://shop.test/product/hoodie/',
    });
  });

  it('sends the nonce in X-WP-Nonce, multipart, and reads the answer', async () => {
    const fetchMock = vi.fn(async () => json({ status: true, action: 'add_to_wishlist', wishlists_data: { products: {}, counter: 1 } }));
    vi.stubGlobal('fetch', fetchMock);
    const answer = await addToWishlist({ productId: 12, productType: 'simple', action: 'addto' });
    expect(answer.status).toBe(true);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(addAddress(window.location.href));
    expect(new Headers(init.headers).get('X-WP-Nonce')).toBe('rest-nonce');
    expect(init.body).toBeInstanceOf(FormData);
  });

  it('says "Something went wrong" when no answer comes', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('offline'))));
    expect(await addToWishlist({ productId: 12, productType: 'simple', action: 'addto' })).toMatchObject({ status: false, msg: 'Something went wrong' });
  });

  it('posts the table’s calls form-encoded with tinvwl-security and the header, keeping a refusal’s message', async () => {
    const fetchMock = vi.fn(async () => json({ status: false, msg: 'Too many requests', icon: 'icon_big_times' }, 429));
    vi.stubGlobal('fetch', fetchMock);
    const answer = await wishlistAjax('remove_selected', tableActionFields({ action: 'remove_selected', shareKey: 'abc', itemIds: [3, 4], page: 2, perPage: 10 }));
    expect(answer).toMatchObject({ status: false, msg: 'Too many requests' });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/?wc-ajax=tinvwl');
    expect(new Headers(init.headers).get('X-WP-Nonce')).toBe('rest-nonce');
    expect(String(init.body)).toBe(
      'tinvwl-action=remove_selected&tinvwl-security=rest-nonce&tinvwl-sharekey=abc&tinvwl-paged=2&tinvwl-per-page=10&tinvwl-products%5B%5D=3&tinvwl-products%5B%5D=4',
    );
  });

  it('plays an answer out as the original: data, refresh signal, redirects and the dialog', () => {
    const plan = planAnswer({
      status: true,
      msg: '<div class="tinv-modal"><div class="tinv-txt">Cap added to Gifts</div><button class="button tinvwl_button_view" data-url="/wishlist/0a1b2c3d4e5f/">View Wishlist</button></div>',
      redirect: 'http://shop.test/wishlist/0a1b2c3d4e5f/',
      wishlist: { ID: 9, title: 'Gifts', status: 'share', share_key: '0a1b2c3d4e5f', is_owner: true },
      wishlists_data: { products: {}, counter: 2 },
    });
    expect(plan).toEqual({
      data: { products: {}, counter: 2 },
      refreshKey: '0a1b2c3d4e5f',
      forceRedirect: null,
      redirect: 'http://shop.test/wishlist/0a1b2c3d4e5f/',
      dialog: { lines: ['Cap added to Gifts'], success: true, viewUrl: '/wishlist/0a1b2c3d4e5f/' },
    });
    expect(planAnswer({ status: false, force_redirect: '/wishlist/' }).forceRedirect).toBe('/wishlist/');
  });
});

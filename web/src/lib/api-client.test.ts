import { beforeEach, describe, expect, it, vi } from 'vitest';
import notPurchasable from '@/test/fixtures/store-add-item-not-purchasable.json';
import { jsonResponse } from '@/test/render';
import { ApiError, currentNonce, resetNonce, storeApiGet, storeApiPost, wcAjax } from './api-client';

type Handler = (url: string, init: RequestInit) => Response;

function stubFetch(handler: Handler) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => handler(String(input), init));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const nonceHeader = (init: RequestInit) => new Headers(init.headers).get('Nonce');

describe('the Store API client', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
  });

  it('keeps the latest Nonce header of any answer', async () => {
    stubFetch(() => jsonResponse([], { headers: { Nonce: 'n1' } }));
    await storeApiGet('/products');
    expect(currentNonce()).toBe('n1');
  });

  it('sends same-origin credentials and leaves out empty query parameters', async () => {
    const fetchMock = stubFetch(() => jsonResponse([]));
    await storeApiGet('/products', { page: 2, search: '', category: undefined, on_sale: true });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/wp-json/wc/store/v1/products?page=2&on_sale=true');
    expect(init?.credentials).toBe('same-origin');
  });

  it('fetches the cart for a nonce before the first write, then sends it', async () => {
    const fetchMock = stubFetch((url, init) => {
      if (url.endsWith('/cart') && !init.method) return jsonResponse({}, { headers: { Nonce: 'fresh' } });
      return jsonResponse({ items: [] }, { status: 201 });
    });
    await storeApiPost('/cart/add-item', { id: 15, quantity: 1 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [, postInit] = fetchMock.mock.calls[1]!;
    expect(postInit?.method).toBe('POST');
    expect(nonceHeader(postInit!)).toBe('fresh');
  });

  it('refetches the nonce and retries once when the server calls it invalid', async () => {
    let posts = 0;
    const fetchMock = stubFetch((_url, init) => {
      if (!init.method) return jsonResponse({}, { headers: { Nonce: posts === 0 ? 'stale' : 'renewed' } });
      posts += 1;
      if (nonceHeader(init) === 'stale') {
        return jsonResponse(
          { code: 'woocommerce_rest_invalid_nonce', message: 'Nonce is invalid.', data: { status: 403 } },
          { status: 403 },
        );
      }
      return jsonResponse({ ok: true });
    });
    await expect(storeApiPost('/cart/update-item', { key: 'k', quantity: 2 })).resolves.toEqual({ ok: true });
    expect(posts).toBe(2);
    expect(fetchMock.mock.calls.map(([, init]) => init?.method ?? 'GET')).toEqual(['GET', 'POST', 'GET', 'POST']);
  });

  it('retries only once, then reports the error', async () => {
    stubFetch((_url, init) =>
      init.method
        ? jsonResponse({ code: 'woocommerce_rest_invalid_nonce', message: 'Nonce is invalid.', data: { status: 403 } }, { status: 403 })
        : jsonResponse({}, { headers: { Nonce: 'n' } }),
    );
    await expect(storeApiPost('/cart/add-item', {})).rejects.toMatchObject({ status: 403, code: 'woocommerce_rest_invalid_nonce' });
  });

  it('turns an error envelope into an ApiError with the message decoded for display', async () => {
    stubFetch((_url, init) =>
      init.method ? jsonResponse(notPurchasable, { status: 400 }) : jsonResponse({}, { headers: { Nonce: 'n' } }),
    );
    const error = await storeApiPost('/cart/add-item', { id: 34, quantity: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: '"WordPress Pennant" is not available for purchase.',
      code: 'woocommerce_rest_product_not_purchasable',
      status: 400,
    });
  });

  it('reports a network failure as an error a shopper can read', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(storeApiGet('/cart')).rejects.toMatchObject({
      code: 'fetch_error',
      message: 'An error occurred while connecting to the server. Please try again.',
    });
  });
});

describe('the classic wc-ajax client', () => {
  it('posts a form-encoded body to the endpoint named in the settings', async () => {
    const fetchMock = stubFetch(() => jsonResponse({ fragments: {}, cart_hash: 'h' }));
    await wcAjax('add_to_cart', { product_id: 15, quantity: 2 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/?wc-ajax=add_to_cart');
    expect(init?.method).toBe('POST');
    expect(String(init?.body)).toBe('product_id=15&quantity=2');
    expect(new Headers(init?.headers).get('Content-Type')).toContain('application/x-www-form-urlencoded');
  });

  it('reads a refusal in the shape of the call even when the status is 400', async () => {
    stubFetch(() => jsonResponse({ error: true, product_url: '/product/beanie/' }, { status: 400 }));
    await expect(wcAjax('add_to_cart', { product_id: 15, quantity: -1 })).resolves.toEqual({
      error: true,
      product_url: '/product/beanie/',
    });
    stubFetch(() => jsonResponse({ success: false }, { status: 404 }));
    await expect(wcAjax('remove_from_cart', { cart_item_key: 'x' })).resolves.toEqual({ success: false });
  });

  it('still fails on an error that is not in the shape of the call', async () => {
    stubFetch(() => jsonResponse({ code: 'internal_server_error', message: 'Try again.' }, { status: 500 }));
    await expect(wcAjax('add_to_cart', { product_id: 15 })).rejects.toBeInstanceOf(ApiError);
  });
});

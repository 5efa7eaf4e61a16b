import { afterEach, describe, expect, it, vi } from 'vitest';
import { platformFetch, sentAs } from './platform-fetch';

describe('the platform REST helper', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends PUT, PATCH and DELETE as POST with the override header', () => {
    expect(sentAs('PUT')).toEqual({ method: 'POST', override: 'PUT' });
    expect(sentAs('PATCH')).toEqual({ method: 'POST', override: 'PATCH' });
    expect(sentAs('DELETE')).toEqual({ method: 'POST', override: 'DELETE' });
    expect(sentAs('POST')).toEqual({ method: 'POST' });
    expect(sentAs('GET')).toEqual({ method: 'GET' });
  });

  it('carries the nonce and the JSON body, and reads the answer', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ id: 3 }), { status: 200, headers: { 'Content-Type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    const user = await platformFetch<{ id: number }>('/wp-json/wp/v2/users/3', { method: 'PUT', nonce: 'abc', data: { woocommerce_meta: { x: 'yes' } } });
    expect(user.id).toBe(3);
    const [url, init] = fetchMock.mock.calls[0]! as unknown as [string, RequestInit];
    expect(url).toBe('/wp-json/wp/v2/users/3');
    expect(init.method).toBe('POST');
    const headers = init.headers as Record<string, string>;
    expect(headers['X-HTTP-Method-Override']).toBe('PUT');
    expect(headers['X-WP-Nonce']).toBe('abc');
    expect(JSON.parse(String(init.body))).toEqual({ woocommerce_meta: { x: 'yes' } });
  });

  it("turns a refusal into an error with the server's code and message", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ code: 'rest_cookie_invalid_nonce', message: 'Cookie check failed' }), { status: 403 })));
    await expect(platformFetch('/wp-json/wp/v2/users/me', { method: 'POST', data: {} })).rejects.toMatchObject({ code: 'rest_cookie_invalid_nonce', status: 403, message: 'Cookie check failed' });
  });
});

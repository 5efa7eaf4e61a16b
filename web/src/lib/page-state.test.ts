import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { hydratePageState, writePageState } from './page-state';

function serverClient() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return client;
}

describe('the data a page travels with', () => {
  it('carries finished queries, their errors as ApiErrors, and counts them as fetched on arrival', async () => {
    const server = serverClient();
    await server.prefetchQuery({ queryKey: ['product', 'tee'], queryFn: () => ({ id: 7, name: 'Tee' }) });
    await server.prefetchQuery({
      queryKey: ['product', 'gone'],
      queryFn: () => Promise.reject(new ApiError('Invalid product ID.', 'woocommerce_rest_product_invalid_id', 404)),
    });
    server.getQueryCache().build(server, { queryKey: ['never-fetched'] });

    const travelled = JSON.parse(JSON.stringify(writePageState(server)));
    expect(travelled.queries.map((q: { queryKey: unknown }) => q.queryKey)).toEqual([
      ['product', 'tee'],
      ['product', 'gone'],
    ]);

    const browser = new QueryClient();
    hydratePageState(browser, travelled, 1_000_000);
    const tee = browser.getQueryState(['product', 'tee'])!;
    expect(browser.getQueryData(['product', 'tee'])).toEqual({ id: 7, name: 'Tee' });
    expect(tee.dataUpdatedAt).toBe(1_000_000);
    const gone = browser.getQueryState(['product', 'gone'])!;
    expect(gone.status).toBe('error');
    expect(gone.error).toBeInstanceOf(ApiError);
    expect((gone.error as ApiError).status).toBe(404);
    expect((gone.error as ApiError).code).toBe('woocommerce_rest_product_invalid_id');
  });
});

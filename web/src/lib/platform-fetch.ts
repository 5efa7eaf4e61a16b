// The platform's REST helper, as its scripts call the platform's API: JSON in and out,
// the `X-WP-Nonce` header that makes the session's login count, and PUT, PATCH and
// DELETE sent as POST with `X-HTTP-Method-Override` (some proxies and hosts only pass
// GET and POST; the server takes the override).
import { ApiError, NETWORK_ERROR_MESSAGE } from './api-client';

export type PlatformMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface PlatformRequest {
  method?: PlatformMethod;
  /** The session's `wp_rest` nonce. */
  nonce?: string;
  data?: unknown;
}

/** The method sent and the override header, if any, for `method`. */
export function sentAs(method: PlatformMethod): { method: 'GET' | 'POST'; override?: PlatformMethod } {
  if (method === 'GET' || method === 'POST') return { method };
  return { method: 'POST', override: method };
}

export async function platformFetch<T>(url: string, { method = 'GET', nonce, data }: PlatformRequest = {}): Promise<T> {
  const sent = sentAs(method);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (nonce) headers['X-WP-Nonce'] = nonce;
  if (sent.override) headers['X-HTTP-Method-Override'] = sent.override;
  if (data !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method: sent.method,
      headers,
      body: data === undefined ? undefined : JSON.stringify(data),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(NETWORK_ERROR_MESSAGE, 'fetch_error', 0);
  }
  const body = (await response.json().catch(() => null)) as (T & { code?: string; message?: string }) | null;
  if (!response.ok) throw new ApiError(body?.message ?? NETWORK_ERROR_MESSAGE, body?.code ?? 'http_error', response.status);
  return body as T;
}

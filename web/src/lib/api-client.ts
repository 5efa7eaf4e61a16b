// The one place that talks HTTP to the shop: the Store API (JSON, nonce-protected
// writes) and the classic wc-ajax calls (form-encoded). Cookies keep the session,
// so every request is same-origin with credentials.

import { settings } from '@/config/settings';
import { htmlToText } from '@/lib/html-text';
import type { StoreApiErrorBody } from '@/types/store-api';

export const NETWORK_ERROR_MESSAGE = 'An error occurred while connecting to the server. Please try again.';
export const INVALID_JSON_MESSAGE = 'The response is not a valid JSON response.';

/** A failed call. `message` is plain text, ready to show. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: StoreApiErrorBody['data'];

  constructor(message: string, code: string, status: number, data?: StoreApiErrorBody['data']) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.data = data;
  }
}

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

// The Store API rejects writes without the nonce it sent with its last answer.
// It lives in memory only: a page load starts with the one the page carries, or
// gets a fresh one from its first call.
let nonce: string | null = settings.store_api_nonce || null;
let nonceRefresh: Promise<void> | null = null;

export function currentNonce(): string | null {
  return nonce;
}

/** Start from a page load's state (tests, and each page the server renders). */
export function resetNonce(): void {
  nonce = settings.store_api_nonce || null;
  nonceRefresh = null;
}

function apiUrl(root: string, path: string, query?: QueryParams): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `${root}${path}${search ? `?${search}` : ''}`;
}

function storeApiUrl(path: string, query?: QueryParams): string {
  return apiUrl(settings.store_api_root, path, query);
}

async function send(url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, credentials: 'same-origin' });
  } catch (error) {
    // A cancelled request is not a failure to report; callers recognise it by its name.
    if (init.signal?.aborted) throw error;
    throw new ApiError(NETWORK_ERROR_MESSAGE, 'fetch_error', 0);
  }
  const sent = response.headers.get('Nonce');
  if (sent) nonce = sent;
  return response;
}

async function parseJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(INVALID_JSON_MESSAGE, 'invalid_json', response.status);
  }
}

function errorFrom(response: Response, body: unknown): ApiError {
  const envelope = (body ?? {}) as Partial<StoreApiErrorBody>;
  const message = envelope.message ? htmlToText(envelope.message) : NETWORK_ERROR_MESSAGE;
  return new ApiError(message, envelope.code ?? 'unknown_error', response.status, envelope.data);
}

async function getJson<T>(url: string): Promise<ApiResponse<T>> {
  const response = await send(url, { headers: { Accept: 'application/json' } });
  const body = await parseJson(response);
  if (!response.ok) throw errorFrom(response, body);
  return { data: body as T, headers: response.headers };
}

export function storeApiGet<T>(path: string, query?: QueryParams): Promise<ApiResponse<T>> {
  return getJson<T>(storeApiUrl(path, query));
}

/** GET on Ferroshop's own calls (`/wp-json/ferroshop/v1`). */
export function restGet<T>(path: string, query?: QueryParams): Promise<ApiResponse<T>> {
  return getJson<T>(apiUrl(settings.rest_api_root, path, query));
}

// Any Store API answer carries a nonce; the cart is the cheapest call that is always there.
function refreshNonce(): Promise<void> {
  nonceRefresh ??= send(storeApiUrl('/cart'), { headers: { Accept: 'application/json' } })
    .then(() => undefined)
    .finally(() => {
      nonceRefresh = null;
    });
  return nonceRefresh;
}

const NONCE_ERRORS = new Set(['woocommerce_rest_invalid_nonce', 'woocommerce_rest_missing_nonce']);

export interface PostOptions {
  query?: QueryParams;
  /** Aborting it cancels the request; the promise then rejects with an AbortError. */
  signal?: AbortSignal;
}

/**
 * A nonce-protected JSON write. Sends the latest nonce; when the server says it is
 * stale (403) or missing (401), fetches a fresh one and tries once more.
 */
async function postJson<T>(url: string, payload: unknown, signal: AbortSignal | undefined): Promise<T> {
  if (!nonce) await refreshNonce();

  const post = () =>
    send(url, {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        ...(nonce ? { Nonce: nonce } : {}),
      },
      body: JSON.stringify(payload),
      signal,
    });

  let response = await post();
  let body = await parseJson(response);
  const code = (body as Partial<StoreApiErrorBody> | null)?.code;
  if ((response.status === 403 || response.status === 401) && code && NONCE_ERRORS.has(code)) {
    await refreshNonce();
    response = await post();
    body = await parseJson(response);
  }
  if (!response.ok) throw errorFrom(response, body);
  return body as T;
}

/** A Store API write (see postJson for the nonce handling). */
export function storeApiPost<T>(path: string, payload: unknown, options: PostOptions = {}): Promise<T> {
  return postJson<T>(storeApiUrl(path, options.query), payload, options.signal);
}

/** A write to Ferroshop's own calls; they take the Store API's nonce. */
export function restPost<T>(path: string, payload: unknown, options: PostOptions = {}): Promise<T> {
  return postJson<T>(apiUrl(settings.rest_api_root, path, options.query), payload, options.signal);
}

function wcAjaxUrl(endpoint: string): string {
  return settings.wc_ajax_url.replace('%%endpoint%%', encodeURIComponent(endpoint));
}

function formBody(fields: Record<string, string | number> | URLSearchParams): URLSearchParams {
  if (fields instanceof URLSearchParams) return fields;
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) body.set(key, String(value));
  return body;
}

/** A classic shop call: `POST /?wc-ajax={endpoint}` with a form-encoded body. */
export function wcAjax<T>(endpoint: string, fields: Record<string, string | number> = {}): Promise<T> {
  return postForm<T>(wcAjaxUrl(endpoint), fields);
}

/**
 * A classic call at an address the caller has (the payment gateway's calls come with
 * their own `ajax_url` and `wp_ajax_url`): form-encoded, answered as wcAjax's are.
 */
export async function postForm<T>(
  url: string,
  fields: Record<string, string | number> | URLSearchParams = {},
  options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<T> {
  const body = formBody(fields);
  const response = await send(url, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8', ...options.headers },
    body,
    signal: options.signal,
  });
  const parsed = await parseJson(response);
  // The classic calls answer a refusal in their own shape ({error, product_url},
  // {success: false} or {status: false, msg}), with a 4xx status; callers read it as the original's scripts do.
  if (!response.ok && !isClassicRefusal(parsed)) throw errorFrom(response, parsed);
  return parsed as T;
}

function isClassicRefusal(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const record = body as Record<string, unknown>;
  // The wishlist's table call refuses with {status: false, msg} (a stale nonce, too many calls).
  return record.error === true || record.success === false || (record.status === false && typeof record.msg === 'string');
}

/**
 * A classic call whose answer is read as text: the coupon calls answer HTML, and the
 * checkout call's JSON may come wrapped in stray output the caller repairs.
 */
export async function wcAjaxText(
  endpoint: string,
  fields: Record<string, string | number> | URLSearchParams,
): Promise<{ ok: boolean; status: number; text: string }> {
  const response = await send(wcAjaxUrl(endpoint), {
    method: 'POST',
    headers: { Accept: 'application/json, text/html', 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    body: formBody(fields),
  });
  return { ok: response.ok, status: response.status, text: await response.text() };
}

// How the express checkout's calls reach the shop, for the session they speak for
// (express-session.ts): the shopper's with cookies, or the product page's own cart by
// its token and without cookies. The token cart's answers never replace the shopper's
// nonce: these calls keep out of the api client's.
import { ApiError, currentNonce } from '@/lib/api-client';
import { htmlToText } from '@/lib/html-text';
import type { StoreApiErrorBody } from '@/types/store-api';
import { PAYMENT_CALL_TIMEOUT_MS } from '../../api/payment-ajax';
import { PaymentRequestError, REQUEST_FAILED_MESSAGE, requestFailureMessage, requestFailureOf } from '../../lib/payment-errors';
import type { ExpressSession } from './express-session';

export interface ExpressRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A form (wc-ajax calls) or a JSON body (Store API writes). */
  form?: URLSearchParams;
  json?: unknown;
}

export interface ExpressAnswer {
  status: number;
  ok: boolean;
  body: unknown;
}

/** Sends one call for the session; a request that got no answer throws the request-status wording. */
export async function sendExpress(session: ExpressSession, url: string, request: ExpressRequest = {}): Promise<ExpressAnswer> {
  const headers: Record<string, string> = { Accept: 'application/json', ...request.headers };
  if (!session.ownCart && session.cartToken) headers['Cart-Token'] = session.cartToken;
  let body: BodyInit | undefined;
  if (request.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded; charset=UTF-8';
    body = request.form;
  } else if (request.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.json);
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      credentials: session.ownCart ? 'same-origin' : 'omit',
      signal: AbortSignal.timeout(PAYMENT_CALL_TIMEOUT_MS),
    });
  } catch (error) {
    throw new PaymentRequestError(requestFailureMessage(requestFailureOf(error)), 'request_failed');
  }
  // The token cart's answers name it again; keep the latest.
  const token = response.headers.get('Cart-Token');
  if (!session.ownCart && token) session.cartToken = token;
  const text = await response.text().catch(() => '');
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new PaymentRequestError(REQUEST_FAILED_MESSAGE, 'invalid_json');
    }
  }
  return { status: response.status, ok: response.ok, body: parsed };
}

/** The Store API nonce for a write: the shopper's latest on their own cart; the params' otherwise. */
export function storeNonceFor(session: ExpressSession, fromParams: string): string {
  return (session.ownCart ? currentNonce() : null) || fromParams;
}

/** A Store API refusal as the rest of the shop reads one (ApiError, its message as text). */
export function storeApiRefusal(answer: ExpressAnswer): ApiError {
  const envelope = (answer.body ?? {}) as Partial<StoreApiErrorBody>;
  const message = envelope.message ? htmlToText(envelope.message) : REQUEST_FAILED_MESSAGE;
  return new ApiError(message, envelope.code ?? 'unknown_error', answer.status, envelope.data);
}

/**
 * A wc-ajax refusal (`{success: false, data: {error: {message}}}`), or an answer that
 * is no object at all: the shop's words, else the request-status wording.
 */
export function ajaxRefusal(answer: ExpressAnswer): PaymentRequestError {
  const body = answer.body as { data?: { error?: { message?: string; code?: string } }; message?: string; error?: string } | null;
  const message = body?.data?.error?.message ?? (typeof body?.error === 'string' ? body.error : undefined) ?? body?.message;
  return new PaymentRequestError(message ? htmlToText(message) : REQUEST_FAILED_MESSAGE, body?.data?.error?.code ?? 'request_failed');
}

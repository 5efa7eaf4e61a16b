// The contact form's calls at the original plugin's REST root (its schema, its refill,
// sending it), answered as the original's scripts read them: a network failure is
// "You are probably offline." (fetch_error), an answer that is not JSON is "The
// response is not a valid JSON response." (invalid_json), a status outside 2xx is a
// failure with the error's own message, and a 204 is no answer at all (null).
import { INVALID_JSON_MESSAGE } from '@/lib/api-client';
import { htmlToText } from '@/lib/html-text';

export const CONTACT_API_ROOT = '/wp-json/contact-form-7/v1';

export const OFFLINE_MESSAGE = 'You are probably offline.';
export const UNKNOWN_ERROR_MESSAGE = 'An unknown error occurred.';

/** A call that failed; `message` is plain text, ready to show. */
export class ContactApiError extends Error {
  readonly code: string;
  /** The HTTP status; 0 when no answer came. */
  readonly status: number;
  /** The session's nonce the answer carried (a refused nonce is answered with the right one). */
  readonly nonce: string | null;

  constructor(message: string, code: string, status: number, nonce: string | null = null) {
    super(message);
    this.name = 'ContactApiError';
    this.code = code;
    this.status = status;
    this.nonce = nonce;
  }
}

interface ErrorEnvelope {
  code?: string;
  message?: string;
}

/** `path` under the plugin's root; the body, or null for a 204. */
export async function contactFetch<T>(path: string, init: RequestInit = {}): Promise<T | null> {
  let response: Response;
  try {
    response = await fetch(`${CONTACT_API_ROOT}${path}`, {
      ...init,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', ...init.headers },
    });
  } catch {
    throw new ContactApiError(OFFLINE_MESSAGE, 'fetch_error', 0);
  }
  if (response.status === 204) return null;
  const nonce = response.headers.get('Nonce');
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    throw new ContactApiError(INVALID_JSON_MESSAGE, 'invalid_json', response.status, nonce);
  }
  if (!response.ok) {
    const envelope = (body && typeof body === 'object' ? body : {}) as ErrorEnvelope;
    const message = envelope.message ? htmlToText(envelope.message) : UNKNOWN_ERROR_MESSAGE;
    throw new ContactApiError(message, envelope.code ?? 'unknown_error', response.status, nonce);
  }
  return body as T;
}

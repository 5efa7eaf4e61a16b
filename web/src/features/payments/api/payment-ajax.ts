// The card gateway's classic calls (wc_stripe_*): their address, and how their answers
// read. A refusal ({success: false, data: {error}}) becomes a PaymentRequestError with
// the shop's message and code; a request that got no readable answer, one with the
// request-status wording (timeout, aborted, anything else).
import { ApiError, postForm } from '@/lib/api-client';
import { PaymentRequestError, requestFailureMessage, requestFailureOf } from '../lib/payment-errors';
import type { PaymentPageSettings } from './get-page-settings';

/** How long a payment call may take before the shopper is told it timed out. */
export const PAYMENT_CALL_TIMEOUT_MS = 60_000;

export type PaymentCallSettings = Pick<PaymentPageSettings, 'ajax_url'>;

/** `ajax_url` with its placeholder replaced by `wc_stripe_{name}`. */
export function paymentAjaxUrl(pageSettings: PaymentCallSettings, name: string): string {
  return pageSettings.ajax_url.replace('%%endpoint%%', encodeURIComponent(`wc_stripe_${name}`));
}

export interface AjaxAnswer<T> {
  success?: boolean;
  data?: T & { error?: { message?: string; code?: string } };
}

export type FormFields = Record<string, string | number>;

/** Posts a classic call; failures of the request itself come back as PaymentRequestError. */
export async function postPaymentCall<T>(url: string, fields: FormFields): Promise<T> {
  try {
    return await postForm<T>(url, fields, { signal: AbortSignal.timeout(PAYMENT_CALL_TIMEOUT_MS) });
  } catch (error) {
    throw asRequestError(error);
  }
}

function asRequestError(error: unknown): PaymentRequestError {
  // An answer the shop explained keeps its words; a transport failure gets the request-status wording.
  if (error instanceof ApiError && !['fetch_error', 'invalid_json', 'unknown_error'].includes(error.code)) {
    return new PaymentRequestError(error.message, error.code);
  }
  return new PaymentRequestError(requestFailureMessage(requestFailureOf(error)), 'request_failed');
}

/** The data of a `{success, data}` answer, or its error thrown. */
export function dataOf<T>(answer: AjaxAnswer<T> | null): T {
  if (!answer || typeof answer !== 'object') throw new PaymentRequestError(requestFailureMessage('error'), 'request_failed');
  if (!answer.success || !answer.data) {
    // No message of its own: the display falls back to "Payment failed. Please try again."
    const error = answer.data?.error;
    throw new PaymentRequestError(error?.message ?? '', error?.code ?? '');
  }
  return answer.data;
}

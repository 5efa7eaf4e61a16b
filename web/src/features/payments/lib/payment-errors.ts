// What a shopper reads when a payment goes wrong: the provider's and the shop's error
// codes through the page settings' messages, the missing-field message, the messages
// for a request that never got its answer, and the fallbacks.

export const REQUEST_TIMEOUT_MESSAGE = 'A timeout occurred while connecting to the server. Please try again.';
export const REQUEST_ABORTED_MESSAGE = 'The connection to the server was aborted. Please try again.';
export const REQUEST_FAILED_MESSAGE = 'An error occurred while connecting to the server. Please try again.';
export const PAYMENT_FAILED_MESSAGE = 'Payment failed. Please try again.';
export const UNKNOWN_ERROR_MESSAGE = 'An error occurred unknown';
export const LOAD_FAILED_MESSAGE = 'Failed to load %s payment method. Please refresh the page and try again.';
export const INVALID_DETAILS_MESSAGE = 'Invalid or missing payment details. Please ensure the provided payment method is correctly entered.';
/** A voucher payment that cannot go on to the order's page, or a payment return the page could not handle. */
export const PAYMENT_PROBLEM_MESSAGE = 'There was a problem processing the payment. Please refresh the page to try again.';

/** How a request to the shop ended without an answer to read. */
export type RequestFailure = 'timeout' | 'abort' | 'error';

/** The one wording of a failed request, by how it failed. */
export function requestFailureMessage(failure: RequestFailure): string {
  switch (failure) {
    case 'timeout':
      return REQUEST_TIMEOUT_MESSAGE;
    case 'abort':
      return REQUEST_ABORTED_MESSAGE;
    default:
      return REQUEST_FAILED_MESSAGE;
  }
}

/** How a fetch that threw failed: a timeout signal, an abort, or anything else. */
export function requestFailureOf(error: unknown): RequestFailure {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError') return 'timeout';
  if (name === 'AbortError') return 'abort';
  return 'error';
}

export function loadFailedMessage(title: string): string {
  return LOAD_FAILED_MESSAGE.replace('%s', title);
}

/**
 * A refusal from the shop's payment calls, or a request to them that failed: its
 * message is for the shopper as it is.
 */
export class PaymentRequestError extends Error {
  readonly code: string;

  constructor(message: string, code = '') {
    super(message);
    this.name = 'PaymentRequestError';
    this.code = code;
  }
}

const MISSING_PARAMETER_CODES = new Set(['parameter_invalid_empty', 'parameter_missing', 'parameter_string_empty', 'parameter_string_blank']);

/** The shop form's labels of the fields the provider may say are missing. */
const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  first_name: 'First name',
  last_name: 'Last name',
  company: 'Company name',
  email: 'Email address',
  phone: 'Phone',
  line1: 'Street address',
  address_1: 'Street address',
  line2: 'Apartment, suite, unit, etc.',
  address_2: 'Apartment, suite, unit, etc.',
  city: 'Town / City',
  state: 'State / County',
  postal_code: 'Postcode / ZIP',
  postcode: 'Postcode / ZIP',
  country: 'Country / Region',
};

/**
 * "Billing Town / City is a required field." for a parameter that names a billing or
 * shipping field (`billing_details[address][city]`, `shipping[name]`, `billing_phone`);
 * null for any other parameter.
 */
export function missingFieldMessage(param: string): string | null {
  const parts = param.split(/[[\]]+/).filter(Boolean);
  // The address may sit inside another parameter: payment_method_data[billing_details][…].
  const at = parts.findIndex((part) => /^(billing|shipping)(_|$)/.test(part));
  if (at < 0) return null;
  const match = /^(billing|shipping)(?:_details)?(?:_(.+))?$/.exec(parts[at]!);
  if (!match) return null;
  const field = match[2] ?? (parts.length - 1 > at ? parts[parts.length - 1] : undefined);
  if (!field) return null;
  const label = FIELD_LABELS[field] ?? field.replace(/_/g, ' ').replace(/^./, (first) => first.toUpperCase());
  return `${match[1] === 'billing' ? 'Billing' : 'Shipping'} ${label} is a required field.`;
}

/** The page settings' messages by error code (the rest of the settings are ignored here). */
export type ErrorMessages = Record<string, unknown>;

interface ErrorLike {
  code?: unknown;
  param?: unknown;
  message?: unknown;
}

/**
 * The message shown for a failed payment. A code the page settings know maps to their
 * message; a missing billing or shipping field is named; otherwise the error's own
 * message. `confirming`: a plain Error (a fault in the page, not an answer) during a
 * confirmation shows the shop's generic message instead of its text.
 */
export function paymentErrorMessage(error: unknown, messages: ErrorMessages, { confirming = false }: { confirming?: boolean } = {}): string {
  if (typeof error === 'string') return error || PAYMENT_FAILED_MESSAGE;
  if (!error || typeof error !== 'object') return UNKNOWN_ERROR_MESSAGE;
  const { code, param, message } = error as ErrorLike;
  if (typeof code === 'string' && code) {
    const configured = messages[code];
    if (typeof configured === 'string' && configured) return configured;
    if (MISSING_PARAMETER_CODES.has(code) && typeof param === 'string') {
      const missing = missingFieldMessage(param);
      if (missing) return missing;
    }
  }
  if (confirming && isPlainError(error)) {
    const generic = messages.genericErrorMessage;
    if (typeof generic === 'string' && generic) return generic;
  }
  return typeof message === 'string' && message ? message : PAYMENT_FAILED_MESSAGE;
}

/** An Error raised in the page itself: no code, no provider type, not one of the shop's answers. */
function isPlainError(error: object): boolean {
  if (!(error instanceof Error) || error instanceof PaymentRequestError) return false;
  const record = error as Error & { code?: unknown; type?: unknown };
  return !record.code && !record.type;
}

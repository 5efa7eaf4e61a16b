// What a refused Store API call says about the checkout form. An address that fails
// its checks answers `rest_invalid_param` whose `data.params` names each field at fault
// by the form's id (`billing_postcode`) next to the address itself (`billing_address`);
// the fields on screen become notices linked to them, the rest plain notices.
import { ApiError } from '@/lib/api-client';
import { htmlToText } from '@/lib/html-text';
import type { ServerNotice } from './notices';

const ADDRESS_PARAMS: Record<string, string> = { billing_address: 'billing_', shipping_address: 'shipping_' };

/** The server's message for each field on screen it found at fault, by field id. */
export function fieldErrorsOf(error: unknown, shownFields: ReadonlySet<string>): Record<string, string> {
  const params = error instanceof ApiError && error.code === 'rest_invalid_param' ? error.data?.params : undefined;
  const found: Record<string, string> = {};
  if (!params || typeof params !== 'object') return found;
  for (const [id, message] of Object.entries(params as Record<string, unknown>)) {
    if (shownFields.has(id) && typeof message === 'string') found[id] = htmlToText(message);
  }
  return found;
}

/**
 * The notices of a refused checkout: one per field at fault, then whatever the error
 * says beyond them. Empty when the answer says nothing a shopper can read (a transport
 * failure, an unreadable answer): the page then shows the shop's checkout error.
 * `hiddenPrefix` names fields that are not on the form (`shipping_` while the goods
 * go to the billing address); the server's verdict on them repeats the billing one.
 */
export function failureNotices(error: unknown, shownFields: ReadonlySet<string>, hiddenPrefix: string | null): ServerNotice[] {
  if (!(error instanceof ApiError) || error.code === 'fetch_error' || error.code === 'invalid_json') return [];
  const fields = fieldErrorsOf(error, shownFields);
  const notices: ServerNotice[] = Object.entries(fields).map(([fieldId, text]) => ({ tone: 'error', text, fieldId }));
  const params = error.code === 'rest_invalid_param' ? (error.data?.params as Record<string, unknown> | undefined) : undefined;
  if (!params) return [{ tone: 'error', text: error.message, fieldId: null }];
  for (const [id, message] of Object.entries(params)) {
    if (fields[id] !== undefined || typeof message !== 'string') continue;
    if (hiddenPrefix && id.startsWith(hiddenPrefix)) continue;
    const prefix = ADDRESS_PARAMS[id];
    // An address whose fields are listed needs no second notice of its own.
    if (prefix && (prefix === hiddenPrefix || Object.keys(fields).some((field) => field.startsWith(prefix)))) continue;
    if (!prefix && /^(billing|shipping)_/.test(id)) continue;
    notices.push({ tone: 'error', text: htmlToText(message), fieldId: null });
  }
  return notices.length > 0 ? notices : [{ tone: 'error', text: error.message, fieldId: null }];
}

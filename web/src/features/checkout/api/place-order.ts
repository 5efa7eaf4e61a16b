// POST /?wc-ajax=checkout: places the order with the serialised checkout form. The
// answer is read leniently (lib/checkout-response.ts); anything unreadable, and any
// transport failure, becomes the shop's configured checkout error.
import { settings } from '@/config/settings';
import { ApiError, wcAjaxText } from '@/lib/api-client';
import { type CheckoutResult, parseCheckoutResponse } from '../lib/checkout-response';

export type PlaceOrderOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'failed'; messages: string; reload: boolean; refresh: boolean };

export function outcomeOf(result: CheckoutResult | null): PlaceOrderOutcome {
  if (result?.result === 'success' && result.redirect) return { kind: 'redirect', url: result.redirect };
  return {
    kind: 'failed',
    messages: result?.messages ?? '',
    reload: result?.reload === true,
    refresh: result?.refresh === true,
  };
}

export async function placeOrder(form: URLSearchParams): Promise<PlaceOrderOutcome> {
  try {
    const { text } = await wcAjaxText('checkout', form);
    const result = parseCheckoutResponse(text);
    if (!result) console.error('The checkout answer could not be read:', text.slice(0, 500));
    return outcomeOf(result);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { kind: 'failed', messages: '', reload: false, refresh: false };
  }
}

export const checkoutErrorText = () => settings.checkout.i18n_checkout_error;

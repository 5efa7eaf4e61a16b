// The wallet sheet's calls (`POST ?wc-ajax=wc_stripe_NAME`, each with its `security`
// nonce from the params) and the Store API calls of an express payment, all for the
// session the page's button speaks for (see express-http.ts).
import { settings } from '@/config/settings';
import type { PaymentDataItem, PlacedPayment } from '@/types/payment-binding';
import type { StoreAddress } from '@/types/store-api';
import { ajaxRefusal, sendExpress, storeApiRefusal, storeNonceFor } from './express-http';
import type { ExpressSession } from './express-session';
import type { ExpressParams, ExpressProductData, ExpressSheet, ExpressShippingOption } from './get-express-params';

/** The params and the session: what every call needs. */
export interface ExpressHttp {
  params: ExpressParams;
  session: ExpressSession;
}

/** A form in the shape the classic calls read: `a[b]=c` for objects, `a[]=b` for lists. */
export function formOf(fields: Record<string, unknown>): URLSearchParams {
  const form = new URLSearchParams();
  const add = (name: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) add(`${name}[]`, item);
    } else if (typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) add(`${name}[${key}]`, inner);
    } else {
      form.append(name, String(value));
    }
  };
  for (const [name, value] of Object.entries(fields)) add(name, value);
  return form;
}

const ajaxUrl = (params: ExpressParams, name: string) => params.ajax_url.replace('%%endpoint%%', encodeURIComponent(`wc_stripe_${name}`));

/**
 * A sheet's call. Answers that say how they went (`result`, `error`) are the caller's
 * to read whatever their status; a refusal or a broken answer throws.
 */
async function ajax<T>({ params, session }: ExpressHttp, name: string, fields: Record<string, unknown>): Promise<T> {
  const answer = await sendExpress(session, ajaxUrl(params, name), { method: 'POST', form: formOf(fields) });
  const body = answer.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || body.success === false) throw ajaxRefusal(answer);
  if (!answer.ok && !('result' in body) && !('error' in body)) throw ajaxRefusal(answer);
  return body as T;
}

/** Where the wallet ships to, in the calls' field names (`address` is the first line). */
export interface ExpressLocation {
  country: string;
  state: string;
  postcode: string;
  city: string;
  address: string;
  address_2: string;
}

export type ShippingOptionsAnswer = ExpressSheet & {
  result: 'success' | 'invalid_shipping_address' | string;
  shipping_options?: ExpressShippingOption[];
  message?: string;
};

/** wc_stripe_get_shipping_options: the rates for the wallet's address, the cart priced for it. */
export function getShippingOptions(http: ExpressHttp, location: ExpressLocation, isProductPage: boolean): Promise<ShippingOptionsAnswer> {
  return ajax(http, 'get_shipping_options', { security: http.params.nonce.shipping, is_product_page: isProductPage ? '1' : '0', ...location });
}

export type ShippingMethodAnswer = ExpressSheet & { result: 'success' | 'invalid_shipping_method' | string; message?: string };

/** wc_stripe_update_shipping_method: the rate the shopper chose (one per package). */
export function updateShippingMethod(http: ExpressHttp, rateIds: string[], isProductPage: boolean): Promise<ShippingMethodAnswer> {
  return ajax(http, 'update_shipping_method', { security: http.params.nonce.update_shipping, shipping_method: rateIds, is_product_page: isProductPage ? '1' : '0' });
}

export interface NormalizedAddresses {
  billing_address: StoreAddress;
  shipping_address: Omit<StoreAddress, 'email'>;
}

/** wc_stripe_normalize_address: the wallet's addresses made ready for checkout. */
export function normalizeAddress(http: ExpressHttp, addresses: NormalizedAddresses): Promise<Partial<NormalizedAddresses>> {
  return ajax(http, 'normalize_address', { security: http.params.nonce.normalize_address, data: addresses });
}

/** The product page's choice: the product (or its variation), how many, its options. */
export interface ProductSelection {
  productId: number;
  quantity: number;
  /** A variable product's options by form field name (`attribute_pa_color`). */
  attributes?: Record<string, string>;
}

const selectionFields = (selection: ProductSelection) => ({
  product_id: selection.productId,
  qty: selection.quantity,
  ...(selection.attributes && Object.keys(selection.attributes).length > 0 ? { attributes: selection.attributes } : {}),
});

export type AddToCartAnswer = ExpressSheet & { result: string };

/** wc_stripe_add_to_cart: the product page's purchase becomes its cart's only content. */
export function addToCart(http: ExpressHttp, selection: ProductSelection): Promise<AddToCartAnswer> {
  return ajax(http, 'add_to_cart', { security: http.params.nonce.add_to_cart, ...selectionFields(selection) });
}

export type SelectedProductAnswer = ExpressProductData | { error: string };

/** wc_stripe_get_selected_product_data: the choice priced before anything is added. */
export function getSelectedProductData(http: ExpressHttp, selection: ProductSelection): Promise<SelectedProductAnswer> {
  return ajax(http, 'get_selected_product_data', { security: http.params.nonce.get_selected_product_data, ...selectionFields(selection) });
}

// ---- Store API --------------------------------------------------------------------------

const storeUrl = (path: string) => `${settings.store_api_root}${path}`;

async function storeApi<T>({ params, session }: ExpressHttp, path: string, json?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (json !== undefined) headers.Nonce = storeNonceFor(session, params.nonce.wc_store_api);
  const answer = await sendExpress(session, storeUrl(path), json === undefined ? { method: 'GET', headers } : { method: 'POST', json, headers });
  if (!answer.ok) throw storeApiRefusal(answer);
  return answer.body as T;
}

export interface ExpressOrder {
  billing_address: StoreAddress;
  shipping_address: Omit<StoreAddress, 'email'>;
  customer_note: string;
  payment_method: 'stripe';
  payment_data: PaymentDataItem[];
}

export type PlacedExpressOrder = PlacedPayment & { order_key: string; status: string };

/**
 * POST /checkout as an express payment: the express headers and their nonce, then the
 * order's answer (paid, or what paying it needs next). A refusal throws the Store API's
 * error (ApiError).
 */
export function placeExpressOrder(http: ExpressHttp, order: ExpressOrder): Promise<PlacedExpressOrder> {
  return storeApi(http, '/checkout', order, {
    'X-WCSTRIPE-EXPRESS-CHECKOUT': 'true',
    'X-WCSTRIPE-EXPRESS-CHECKOUT-NONCE': http.params.nonce.wc_store_api_express_checkout,
  });
}

/**
 * wc_stripe_update_order_status for an order of the product page's own cart, after 3-D
 * Secure: the nonce came with the order's answer, bound to that cart.
 */
export async function updateOrderStatus(http: ExpressHttp, update: { orderId: number; intentId: string; nonce: string }): Promise<string> {
  const answer = await ajax<{ success?: boolean; data?: { return_url?: string } }>(http, 'update_order_status', {
    order_id: update.orderId,
    intent_id: update.intentId,
    payment_method_id: '',
    _ajax_nonce: update.nonce,
  });
  const url = answer.data?.return_url;
  if (!answer.success || !url) throw ajaxRefusal({ status: 200, ok: true, body: answer });
  return url;
}

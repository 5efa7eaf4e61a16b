// GET /payments/express-checkout-params?context=product|cart|checkout[&product_id=]: what
// the express checkout button needs on a page (the original's
// `wc_stripe_express_checkout_params`): whether the shop offers it, the key, the
// currency, the amount and its display items, the button's look and the nonces of the
// sheet's calls. A product page's params name a cart of the button's own (`cart_token`);
// asked again with that token, the shop answers for the same cart.
import { settings } from '@/config/settings';
import type { ExpressSession } from './express-session';

export type ExpressContext = 'product' | 'cart' | 'checkout';

/** One line of the wallet sheet, in minor units. */
export interface ExpressDisplayItem {
  label: string;
  amount: number;
  /** `total_shipping`, `total_discount` (the discount is shown as a positive amount). */
  key?: string;
  pending?: boolean;
}

/** What the sheet shows of a cart or a product: its lines and total. */
export interface ExpressSheet {
  displayItems: ExpressDisplayItem[];
  total: { label: string; amount: number; pending?: boolean };
}

/** The shipping option a product page shows until the wallet gives an address. */
export interface ExpressShippingOption {
  id: string;
  label: string;
  displayName?: string;
  detail: string;
  amount: number;
}

/** A product priced on its own (params, `wc_stripe_get_selected_product_data`). */
export interface ExpressProductData extends ExpressSheet {
  currency: string;
  country_code: string;
  requestShipping: boolean;
  needs_shipping: boolean;
  shippingOptions?: ExpressShippingOption;
  validVariationSelected?: boolean;
}

/** The cart as the sheet shows it (params, `wc_stripe_get_cart_details`). */
export interface ExpressCartData {
  shipping_required: boolean;
  order_data: ExpressSheet & { currency: string; country_code: string };
}

export interface ExpressNonces {
  shipping: string;
  update_shipping: string;
  normalize_address: string;
  wc_store_api: string;
  wc_store_api_express_checkout: string;
  get_cart_details: string;
  add_to_cart: string;
  clear_cart: string;
  get_selected_product_data: string;
  /** For reporting a 3-D Secure challenge that failed after the payment. */
  update_failed_order?: string;
}

export interface ExpressParams {
  enabled: true;
  /** With `%%endpoint%%` for the call's name (`wc_stripe_…`). */
  ajax_url: string;
  stripe: { publishable_key: string; locale: string; is_link_enabled: boolean; allow_prepaid_card?: string; apiVersion?: string };
  nonce: ExpressNonces;
  i18n: Record<string, string>;
  checkout: { url: string; currency_code: string; country_code: string; needs_shipping: 'yes' | 'no'; needs_payer_phone: boolean };
  button: { type: string; theme: string; height: string; radius: string; locale?: string };
  total_label: string;
  is_product_page: boolean;
  is_cart_page: boolean;
  is_checkout_page: boolean;
  /** The product page's product; false elsewhere, or when nothing of it can be bought. */
  product: ExpressProductData | false;
  /** The cart (cart and checkout pages); false on a product page. */
  cart: ExpressCartData | false;
  /** The product page's own cart. */
  cart_token?: string;
}

export type ExpressParamsAnswer = ExpressParams | { enabled: false };

export interface ExpressScope {
  context: ExpressContext;
  /** The product page's product (a variable product's parent). */
  productId?: number;
}

/**
 * The params for a page, asked for the session the button's calls will speak for (a
 * product page's without cookies, with its cart's token once it has one). Kept to a
 * bare fetch: this is all of express checkout a page carries before the shop says it
 * offers it. Params that cannot be had leave the page without the button.
 */
export async function getExpressParams(scope: ExpressScope, session: ExpressSession): Promise<ExpressParamsAnswer> {
  const query = new URLSearchParams({ context: scope.context });
  if (scope.context === 'product' && scope.productId) query.set('product_id', String(scope.productId));
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (!session.ownCart && session.cartToken) headers['Cart-Token'] = session.cartToken;
  const response = await fetch(`${settings.rest_api_root}/payments/express-checkout-params?${query}`, {
    headers,
    credentials: session.ownCart ? 'same-origin' : 'omit',
  });
  if (!response.ok) throw new Error(`The express checkout's params could not be had (${response.status}).`);
  const params = (await response.json()) as ExpressParamsAnswer;
  if (params.enabled && params.cart_token && !session.ownCart) session.cartToken = params.cart_token;
  return params;
}

/**
 * Whether the shop may offer express checkout at all: the wallets pay through the card
 * gateway, which the shop lists only while it is connected to the provider. A shop
 * without it asks for nothing.
 */
export function mayOfferExpressCheckout(): boolean {
  return settings.checkout.gateways.some((gateway) => gateway.id === 'stripe');
}

// Shop settings the server embeds in every page as
// <script id="ferroshop-settings" type="application/json">. Read once at start-up;
// the defaults apply when the element is missing (the Vite dev server) or partial.

export interface ShopCurrency {
  code: string;
  symbol: string;
  minor_unit: number;
  decimal_separator: string;
  thousand_separator: string;
  prefix: string;
  suffix: string;
}

/** A payment method offered at checkout and on the order-pay page. */
export interface PaymentGateway {
  id: string;
  title: string;
  description: string;
  /** The place-order button's text while this method is chosen; null keeps "Place order". */
  order_button_text: string | null;
}

export interface CheckoutSettings {
  /** Per-visitor nonces of the classic calls; they change when the visitor logs in or out. */
  nonces: {
    update_order_review: string;
    apply_coupon: string;
    remove_coupon: string;
    process_checkout: string;
  };
  /** `option_guest_checkout`: whether shoppers may check out without an account. */
  guest_checkout: boolean;
  /** Whether shoppers may create an account while checking out. */
  signup_at_checkout: boolean;
  /** Terms shoppers must accept before ordering; null when the shop has none. */
  terms: { text: string; page_url: string } | null;
  /** Shown above the place-order button; may contain links. */
  privacy_text: string;
  i18n_checkout_error: string;
  gateways: PaymentGateway[];
  default_country: string;
  coupons_enabled: boolean;
  order_notes: boolean;
}

/** The visitor as the server knows them when the page was served. */
export interface AccountSettings {
  logged_in: boolean;
  user_id: number;
  email: string;
  display_name: string;
  first_name: string;
  last_name: string;
}

/** What a form the page answers did (see app/layout/page-notices.tsx). */
export interface PageNotice {
  kind: 'success' | 'error';
  message: string;
  cart_link: boolean;
}

/** The shop's store notice (app/layout/store-notice.tsx); the server leaves it out
 *  once this shopper has dismissed it. */
export interface StoreNoticeSettings {
  /** Names the cookie a dismissal sets (`store_notice{id}`). */
  id: string;
  /** Plain text or a little HTML. */
  text: string;
}

/** Staff looking at a shop in coming-soon mode (app/layout/coming-soon-banner.tsx):
 *  where the banner's dismissal is written, and the `wp_rest` nonce that call takes. */
export interface ComingSoonSettings {
  rest_url: string;
  nonce: string;
}

/** The wishlist's client settings (the original's `tinvwl_add_to_wishlist`). */
export interface WishlistSettings {
  wc_ajax_url: string;
  /** The session's `wp_rest` nonce, sent with every wishlist write. */
  nonce: string;
  /** A listed product's button removes it. */
  simple_flow: boolean;
  /** A variable product may be listed without a chosen variation. */
  allow_parent_variable: boolean;
  redirect: boolean;
  show_notice: boolean;
  /** Milliseconds before the add dialog closes by itself. */
  popup_timer: number;
  /** Where the wishlist data is cached (localStorage and sessionStorage). */
  hash_key: string;
  page_url: string;
  /** The header counter hides at 0. */
  hide_zero_counter: boolean;
  i18n_make_a_selection_text: string;
  tinvwl_break_submit: string;
  tinvwl_clipboard: string;
  text_create: string;
  text_already_in: string;
}

export interface ShopSettings {
  /** The Store API nonce for this visitor's session, so a write needs no call first. */
  store_api_nonce: string;
  /** The cart page form's nonce (`woocommerce-cart-nonce`), for when scripts are off. */
  cart_nonce: string;
  wc_ajax_url: string;
  store_api_root: string;
  /** Ferroshop's own calls (address rules, orders, the account area). */
  rest_api_root: string;
  cart_url: string;
  shop_name: string;
  cart_redirect_after_add: 'yes' | 'no';
  i18n_view_cart: string;
  currency: ShopCurrency;
  checkout: CheckoutSettings;
  account: AccountSettings;
  notices: PageNotice[];
  store_notice: StoreNoticeSettings | null;
  coming_soon: ComingSoonSettings | null;
  wishlist: WishlistSettings;
}

export const DEFAULT_SETTINGS: ShopSettings = {
  store_api_nonce: '',
  cart_nonce: '',
  wc_ajax_url: '/?wc-ajax=%%endpoint%%',
  store_api_root: '/wp-json/wc/store/v1',
  rest_api_root: '/wp-json/ferroshop/v1',
  cart_url: '/cart',
  shop_name: 'Ferroshop',
  cart_redirect_after_add: 'no',
  i18n_view_cart: 'View cart',
  currency: {
    code: 'USD',
    symbol: '$',
    minor_unit: 2,
    decimal_separator: '.',
    thousand_separator: ',',
    prefix: '$',
    suffix: '',
  },
  checkout: {
    nonces: { update_order_review: '', apply_coupon: '', remove_coupon: '', process_checkout: '' },
    guest_checkout: true,
    signup_at_checkout: true,
    terms: null,
    privacy_text:
      'Your personal data will be used to process your order, support your experience throughout this website, and for other purposes described in our privacy policy.',
    i18n_checkout_error: 'Error processing checkout. Please try again.',
    gateways: [],
    default_country: 'US',
    coupons_enabled: true,
    order_notes: true,
  },
  account: {
    logged_in: false,
    user_id: 0,
    email: '',
    display_name: '',
    first_name: '',
    last_name: '',
  },
  notices: [],
  store_notice: null,
  coming_soon: null,
  wishlist: {
    wc_ajax_url: '/?wc-ajax=tinvwl',
    nonce: '',
    simple_flow: false,
    allow_parent_variable: false,
    redirect: true,
    show_notice: true,
    popup_timer: 6000,
    hash_key: 'ti_wishlist_data',
    page_url: '/wishlist/',
    hide_zero_counter: false,
    i18n_make_a_selection_text: 'Please select some product options before adding this product to your wishlist.',
    tinvwl_break_submit: 'No items or actions are selected.',
    tinvwl_clipboard: 'Copied!',
    text_create: 'Create New',
    text_already_in: '{product_name} already in {wishlist_title}',
  },
};

export const SETTINGS_ELEMENT_ID = 'ferroshop-settings';

export function readSettings(doc: Document | undefined = globalThis.document): ShopSettings {
  return parseSettings(doc?.getElementById(SETTINGS_ELEMENT_ID)?.textContent);
}

/** Settings from their JSON text; the defaults fill what is missing. */
export function parseSettings(text: string | null | undefined): ShopSettings {
  if (!text) return DEFAULT_SETTINGS;
  try {
    const parsed = JSON.parse(text) as Partial<ShopSettings>;
    const checkout: Partial<CheckoutSettings> = parsed.checkout ?? {};
    return {
      ...DEFAULT_SETTINGS,
      ...parsed,
      currency: { ...DEFAULT_SETTINGS.currency, ...parsed.currency },
      checkout: {
        ...DEFAULT_SETTINGS.checkout,
        ...checkout,
        nonces: { ...DEFAULT_SETTINGS.checkout.nonces, ...checkout.nonces },
        gateways: Array.isArray(checkout.gateways) ? checkout.gateways : DEFAULT_SETTINGS.checkout.gateways,
      },
      account: { ...DEFAULT_SETTINGS.account, ...parsed.account },
      notices: Array.isArray(parsed.notices) ? parsed.notices : [],
      store_notice: parseStoreNotice(parsed.store_notice),
      coming_soon: parseComingSoon(parsed.coming_soon),
      wishlist: { ...DEFAULT_SETTINGS.wishlist, ...parsed.wishlist },
    };
  } catch {
    // A broken settings block must not take the shop down; the defaults match the server's.
    return DEFAULT_SETTINGS;
  }
}

function parseStoreNotice(value: unknown): StoreNoticeSettings | null {
  if (typeof value !== 'object' || value === null) return null;
  const { id, text } = value as Partial<StoreNoticeSettings>;
  return typeof id === 'string' && id !== '' && typeof text === 'string' && text !== '' ? { id, text } : null;
}

function parseComingSoon(value: unknown): ComingSoonSettings | null {
  if (typeof value !== 'object' || value === null) return null;
  const { rest_url: restUrl, nonce } = value as Partial<ComingSoonSettings>;
  // Only the shop's own address: the banner posts to it with the session's nonce.
  return typeof restUrl === 'string' && restUrl.startsWith('/wp-json/') && typeof nonce === 'string' && nonce !== ''
    ? { rest_url: restUrl, nonce }
    : null;
}

export const settings: ShopSettings = { ...readSettings() };

/**
 * The server renders many pages, for many visitors, with one copy of the app: it puts
 * each page's settings in place before rendering it.
 */
export function applyRenderSettings(next: ShopSettings): void {
  Object.assign(settings, next);
}

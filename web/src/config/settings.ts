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

export interface ShopSettings {
  wc_ajax_url: string;
  store_api_root: string;
  cart_url: string;
  shop_name: string;
  cart_redirect_after_add: 'yes' | 'no';
  i18n_view_cart: string;
  currency: ShopCurrency;
}

export const DEFAULT_SETTINGS: ShopSettings = {
  wc_ajax_url: '/?wc-ajax=%%endpoint%%',
  store_api_root: '/wp-json/wc/store/v1',
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
};

export const SETTINGS_ELEMENT_ID = 'ferroshop-settings';

export function readSettings(doc: Document | undefined = globalThis.document): ShopSettings {
  const text = doc?.getElementById(SETTINGS_ELEMENT_ID)?.textContent;
  if (!text) return DEFAULT_SETTINGS;
  try {
    const parsed = JSON.parse(text) as Partial<ShopSettings>;
    return {
      ...DEFAULT_SETTINGS,
      ...parsed,
      currency: { ...DEFAULT_SETTINGS.currency, ...parsed.currency },
    };
  } catch {
    // A broken settings block must not take the shop down; the defaults match the server's.
    return DEFAULT_SETTINGS;
  }
}

export const settings: ShopSettings = readSettings();

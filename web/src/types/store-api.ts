// Shapes of the Store API (`/wp-json/wc/store/v1`) and of the classic wc-ajax calls,
// as the server sends them. Shared by every feature; only the fields the storefront
// reads are listed.

/** Currency fields that come with every set of prices. Amounts are strings in minor units. */
export interface CurrencyFields {
  currency_code: string;
  currency_symbol: string;
  currency_minor_unit: number;
  currency_decimal_separator: string;
  currency_thousand_separator: string;
  currency_prefix: string;
  currency_suffix: string;
}

export interface ProductPrices extends CurrencyFields {
  price: string;
  regular_price: string;
  sale_price: string;
  price_range: { min_amount: string; max_amount: string } | null;
}

export interface ProductImage {
  id: number;
  src: string;
  thumbnail: string;
  srcset: string;
  sizes: string;
  name: string;
  alt: string;
  /** The image's caption ("" without one; this shop's addition), shown by the full-screen viewer. */
  caption?: string;
  /** The image's own size in pixels (this shop's addition), for the img's ratio. */
  width?: number;
  height?: number;
}

export interface TermRef {
  id: number;
  name: string;
  slug: string;
  link: string;
}

export interface ProductAttribute {
  id: number;
  name: string;
  /** `pa_color` for a global attribute, null for one defined on the product. */
  taxonomy: string | null;
  has_variations: boolean;
  terms: { id: number; name: string; slug: string }[];
}

/** One variation of a variable product; an empty `value` means "any value". */
export interface VariationRef {
  id: number;
  attributes: { name: string; value: string }[];
}

export interface AddToCartLimits {
  text: string;
  description: string;
  url: string;
  minimum: number;
  maximum: number;
  multiple_of: number;
}

export type ProductType = 'simple' | 'variable' | 'variation' | 'external' | 'grouped';

export interface Product {
  id: number;
  name: string;
  slug: string;
  parent: number;
  type: ProductType;
  /** For a variation, its attributes as text ("Color: Blue, Logo: Yes"). */
  variation: string;
  permalink: string;
  sku: string;
  short_description: string;
  description: string;
  on_sale: boolean;
  prices: ProductPrices;
  average_rating: string;
  review_count: number;
  images: ProductImage[];
  categories: TermRef[];
  /** Present when the shop has brands. */
  brands?: TermRef[];
  tags: TermRef[];
  attributes: ProductAttribute[];
  variations: VariationRef[];
  has_options: boolean;
  is_purchasable: boolean;
  is_in_stock: boolean;
  is_on_backorder: boolean;
  low_stock_remaining: number | null;
  sold_individually: boolean;
  add_to_cart: AddToCartLimits;
  /** Ferroshop's rows for the "Additional information" tab (weight, dimensions, visible attributes). */
  additional_information?: { label: string; value: string }[];
  /** Not part of the original Store API; shown in "Additional information" when sent. */
  weight?: string;
  dimensions?: { length: string; width: string; height: string };
  /** The Store API's place for additions: this shop's upsells ("You may also like…"). */
  extensions?: { ferroshop?: { upsell_ids?: number[] } };
}

/** A product category or brand. */
export interface Taxonomy {
  id: number;
  name: string;
  slug: string;
  description: string;
  parent: number;
  count: number;
  image: ProductImage | null;
  link: string;
}

export interface CartItem {
  key: string;
  id: number;
  quantity: number;
  quantity_limits: { minimum: number; maximum: number; multiple_of: number; editable: boolean };
  name: string;
  sku: string;
  low_stock_remaining: number | null;
  backorders_allowed: boolean;
  show_backorder_badge: boolean;
  sold_individually: boolean;
  permalink: string;
  images: ProductImage[];
  variation: { attribute: string; value: string }[];
  item_data: { name?: string; key?: string; value: string; display?: string }[];
  prices: ProductPrices;
  totals: CurrencyFields & {
    line_subtotal: string;
    line_subtotal_tax: string;
    line_total: string;
    line_total_tax: string;
  };
}

export interface CartCoupon {
  code: string;
  discount_type: string;
  totals: CurrencyFields & { total_discount: string; total_discount_tax: string };
}

export interface CartTaxLine {
  name: string;
  price: string;
  rate: string;
}

export interface CartTotals extends CurrencyFields {
  total_items: string;
  total_items_tax: string;
  total_fees: string;
  total_discount: string;
  total_shipping: string | null;
  total_shipping_tax?: string | null;
  total_price: string;
  total_tax: string;
  tax_lines?: CartTaxLine[];
}

/** A postal address as the Store API sends it; billing ones carry `email`. */
export interface StoreAddress {
  first_name: string;
  last_name: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  email?: string;
  phone: string;
}

export interface ShippingRate extends CurrencyFields {
  rate_id: string;
  name: string;
  description: string;
  delivery_time: string;
  price: string;
  taxes: string;
  method_id: string;
  instance_id: number;
  selected: boolean;
}

/** One shipping package: the items it carries and the rates to choose from. */
export interface ShippingPackage {
  package_id: number | string;
  name: string;
  destination: Partial<StoreAddress>;
  items: { key: string; name: string; quantity: number }[];
  shipping_rates: ShippingRate[];
}

export interface CartFee {
  key: string;
  name: string;
  totals: CurrencyFields & { total: string; total_tax: string };
}

export interface Cart {
  coupons: CartCoupon[];
  items: CartItem[];
  items_count: number;
  needs_shipping: boolean;
  totals: CartTotals;
  errors: { code: string; message: string }[];
  /** The fields below come with every cart; the checkout reads them. */
  needs_payment?: boolean;
  has_calculated_shipping?: boolean;
  shipping_rates?: ShippingPackage[];
  billing_address?: StoreAddress;
  shipping_address?: StoreAddress;
  fees?: CartFee[];
  payment_methods?: string[];
  /** Products the cart's products suggest ("You may be interested in…"). */
  cross_sells?: Product[];
}

/** The Store API error envelope. */
export interface StoreApiErrorBody {
  code: string;
  message: string;
  data?: { status?: number; cart?: Cart } & Record<string, unknown>;
}

/** Answer of the classic `add_to_cart`, `remove_from_cart` and `get_refreshed_fragments` calls. */
export interface FragmentsResponse {
  fragments?: Record<string, string>;
  cart_hash?: string;
  error?: boolean;
  product_url?: string | false;
  /** Why the shop refused an add to cart (Ferroshop sends it; HTML entities possible). */
  message?: string;
  success?: boolean;
}

// An order as Ferroshop's order calls send it (`/wp-json/ferroshop/v1/orders/…` and
// the account area). Money values are strings of integer minor units, formatted with
// the currency fields in `totals`.
import type { CurrencyFields, StoreAddress } from './store-api';

export interface OrderItem {
  id: number;
  product_id: number;
  variation_id: number;
  name: string;
  sku: string;
  quantity: number;
  variation: { attribute: string; value: string }[];
  subtotal: string;
  subtotal_tax: string;
  total: string;
  total_tax: string;
}

export interface OrderTaxLine {
  label: string;
  rate_percent: number | string;
  tax_total: string;
  shipping_tax_total: string;
}

export interface BankAccount {
  account_name: string;
  account_number: string;
  bank_name: string;
  sort_code: string;
  iban: string;
  bic: string;
}

export interface Order {
  id: number;
  number: string;
  order_key: string;
  status: string;
  status_label: string;
  /** ISO 8601. */
  date_created: string;
  customer_id: number;
  customer_note: string;
  billing_address: StoreAddress;
  shipping_address: StoreAddress;
  payment_method: string;
  payment_method_title: string;
  needs_payment: boolean;
  pay_url: string;
  received_url: string;
  items: OrderItem[];
  shipping_lines: { method_id: string; name: string; total: string; total_tax: string }[];
  coupon_lines: { code: string; discount: string; discount_tax: string }[];
  fee_lines: { name: string; total: string; total_tax: string }[];
  tax_lines: OrderTaxLine[];
  totals: CurrencyFields & {
    subtotal: string;
    discount: string;
    shipping: string;
    tax: string;
    total: string;
  };
  payment_instructions: string | null;
  bank_accounts: BankAccount[];
}

/** A line of the account's order list. */
export interface OrderSummary extends CurrencyFields {
  id: number;
  number: string;
  order_key?: string;
  date_created: string;
  status: string;
  status_label: string;
  total: string;
  item_count: number;
}

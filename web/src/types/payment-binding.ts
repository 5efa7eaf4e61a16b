// How the forms that take a payment (the checkout, the order-pay page) meet the card
// gateway without importing it: the app builds a PaymentBinding from the payments
// feature and hands it to them. A gateway with a payment box
// (the card form) registers a PaymentSubmission, through which the form submits.
import type { ReactNode } from 'react';

/** One entry of a Store API checkout's `payment_data`. */
export interface PaymentDataItem {
  key: string;
  value: string;
}

/** The billing address as the form holds it (Store API field names). */
export interface PaymentBillingAddress {
  first_name?: string;
  last_name?: string;
  company?: string;
  email?: string;
  phone?: string;
  address_1?: string;
  address_2?: string;
  city?: string;
  state?: string;
  postcode?: string;
  country?: string;
}

/** An order the shop answered with: what paying it needs next. */
export interface PlacedPayment {
  order_id: number;
  /** Absent on the order-pay page's answer: the page knows its order. */
  order_key?: string;
  payment_result: { payment_status: string; redirect_url: string };
}

/** Where a payment ended: the next address, or a message (and maybe a page to show it on). */
export type PaymentOutcome = { ok: true; redirect: string } | { ok: false; message: string; redirect: string | null };

export type PreparedPayment = { ok: true; paymentData: PaymentDataItem[] } | { ok: false; message: string };

/** What a payment box does when its form is sent. */
export interface PaymentSubmission {
  /** Before the order call: checks the payment details and turns them into `payment_data`. */
  prepare(): Promise<PreparedPayment>;
  /** After the order call: confirms the payment in place when the provider asks, then says where to go. */
  complete(placed: PlacedPayment): Promise<PaymentOutcome>;
  /** The order call's refusal as the payment method reads it; null leaves it to the form. */
  refusal(error: unknown): { message: string; redirect: string | null } | null;
  /** Forms that save a payment method instead of paying (changing an order's payment method). */
  save(): Promise<PaymentOutcome>;
}

export interface PaymentBoxProps {
  gatewayId: string;
  /** Whether the shopper chose this gateway: its form loads when first chosen. */
  selected: boolean;
  billing: PaymentBillingAddress;
  /** The amount to pay now in minor units; null takes the page settings' total. */
  amount: number | null;
  /** Whether an account comes with this order (checkout: ticked, or required). */
  createAccount: boolean;
  disabled: boolean;
  onSubmission: (gatewayId: string, submission: PaymentSubmission | null) => void;
}

export interface PaymentBinding {
  /** Whether the gateway may be offered to a shopper billed in `billingCountry`. */
  isAvailable: (gatewayId: string, billingCountry: string) => boolean;
  /** Whether the gateway's box holds a payment form (then its form submits through it). */
  hasBox: (gatewayId: string) => boolean;
  /** The box under the gateway's radio, or null for gateways without one. */
  renderBox: (props: PaymentBoxProps) => ReactNode;
}

/** What a page sent on to another page after a payment failed there (router state). */
export interface PaymentNoticeState {
  paymentNotice?: string;
}

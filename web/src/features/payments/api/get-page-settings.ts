// GET /payments/page-settings?context=…: what a payment page needs of the card gateway
// (keys, nonces, the methods, the totals, the messages). Rendered with the page; the
// nonces belong to the visitor's session, so the query is keyed on the account too.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Appearance } from '@stripe/stripe-js';
import { settings } from '@/config/settings';
import { restGet } from '@/lib/api-client';
import type { MethodConfig } from '../lib/method-rules';

export interface SavedPaymentMethod {
  id: number;
  gateway: string;
  type: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  is_default: boolean;
}

export interface PaymentPageSettings {
  enabled: boolean;
  gatewayId: string;
  title: string;
  /** The publishable key; absent when the shop has no provider keys. */
  key?: string;
  locale: string;
  apiVersion: string;
  isCheckout: boolean;
  isOrderPay: boolean;
  isChangingPayment: boolean;
  isAddPaymentMethod: boolean;
  orderId: number;
  orderReceivedURL: string;
  addPaymentReturnURL: string;
  /** The classic calls' address, with `%%endpoint%%` for the call's name. */
  ajax_url: string;
  wp_ajax_url: string;
  theme_name: string;
  createPaymentIntentNonce: string;
  updatePaymentIntentNonce: string;
  createSetupIntentNonce: string;
  createAndConfirmSetupIntentNonce: string;
  updateFailedOrderNonce: string;
  updateOrderStatusNonce: string;
  confirmChangePaymentNonce: string;
  saveAppearanceNonce: string;
  paymentMethodsConfig: Record<string, MethodConfig>;
  genericErrorMessage: string;
  invalid_wallet_type: string;
  accountDescriptor: string;
  enabledBillingFields: string[];
  cartContainsSubscription: boolean;
  subscriptionRequiresManualRenewal: boolean;
  /** Minor units of `currency`: the cart's, or the order's on its pages; 0 when adding a method. */
  cartTotal: number;
  currency: string;
  isLoggedIn: boolean;
  isSignupOnCheckoutAllowed: boolean;
  isPaymentNeeded: boolean;
  /** The one-checkout mode. */
  isOCEnabled: boolean;
  OCLayout: string;
  paymentMethodConfigurationParentId: string | null;
  customerData: { billing_country?: string };
  appearance: Appearance | null;
  blocksAppearance: Appearance | null;
  captureMethod: string;
  savedPaymentMethods: SavedPaymentMethod[];
  /** Plus one message per error code (`card_declined`, `invalid_number`…). */
  [code: string]: unknown;
}

/** Which payment page the settings are for; the order's pages name the order. */
export type PageSettingsScope =
  | { context: 'checkout' | 'add-payment-method' }
  | { context: 'order-pay' | 'change-payment'; orderId: number | string; orderKey: string };

export async function getPageSettings(scope: PageSettingsScope): Promise<PaymentPageSettings> {
  const query = scope.context === 'order-pay' || scope.context === 'change-payment' ? { context: scope.context, order_id: scope.orderId, key: scope.orderKey } : { context: scope.context };
  const { data } = await restGet<PaymentPageSettings>('/payments/page-settings', query);
  return data;
}

export function pageSettingsQueryKey(scope: PageSettingsScope, accountId: number = settings.account.user_id) {
  const order = 'orderId' in scope ? [String(scope.orderId), scope.orderKey] : [];
  return ['payments', 'page-settings', accountId, scope.context, ...order] as const;
}

export function getPageSettingsQueryOptions(scope: PageSettingsScope, accountId: number = settings.account.user_id) {
  // The shop's usual freshness: a page shown again later asks again (saved cards and
  // totals change with the orders placed meanwhile).
  return queryOptions({ queryKey: pageSettingsQueryKey(scope, accountId), queryFn: () => getPageSettings(scope) });
}

export function usePageSettings(scope: PageSettingsScope, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getPageSettingsQueryOptions(scope), enabled });
}

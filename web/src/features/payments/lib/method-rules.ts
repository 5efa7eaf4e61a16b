// The rules of the card gateway's payment methods: which types exist and their gateway
// ids, where a method may be offered, when the save option and the provider's terms
// show, the element's mode, the Cash App notice, the BLIK code, which billing fields
// the element leaves to the shop's form, and the billing details sent to the provider.
import type { PaymentBillingAddress } from '@/types/payment-binding';

/** Every method type the gateway knows (the card is plain `stripe`; the others `stripe_{type}`). */
export const PAYMENT_METHOD_TYPES = [
  'blik',
  'card',
  'us_bank_account',
  'au_becs_debit',
  'giropay',
  'eps',
  'ideal',
  'p24',
  'sepa_debit',
  'sofort',
  'boleto',
  'oxxo',
  'bancontact',
  'alipay',
  'multibanco',
  'klarna',
  'affirm',
  'afterpay_clearpay',
  'wechat_pay',
  'cashapp',
  'acss_debit',
  'bacs_debit',
] as const;

export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

export const CARD_GATEWAY_ID = 'stripe';

const KNOWN_TYPES: ReadonlySet<string> = new Set(PAYMENT_METHOD_TYPES);

export function gatewayIdOf(type: PaymentMethodType): string {
  return type === 'card' ? CARD_GATEWAY_ID : `${CARD_GATEWAY_ID}_${type}`;
}

/** A method type the gateway knows, or null. */
export function asMethodType(value: string): PaymentMethodType | null {
  return KNOWN_TYPES.has(value) ? (value as PaymentMethodType) : null;
}

/** The method type a gateway id stands for, or null for any other gateway. */
export function methodTypeOf(gatewayId: string): PaymentMethodType | null {
  if (gatewayId === CARD_GATEWAY_ID) return 'card';
  const prefix = `${CARD_GATEWAY_ID}_`;
  if (!gatewayId.startsWith(prefix)) return null;
  return asMethodType(gatewayId.slice(prefix.length));
}

/** Whether the shop offers any of the gateway's methods (otherwise nothing of the provider loads). */
export function hasPaymentGateway(gateways: readonly { id: string }[]): boolean {
  return gateways.some((gateway) => methodTypeOf(gateway.id) !== null);
}

/** A method type's settings, as the page settings' `paymentMethodsConfig` has them. */
export interface MethodConfig {
  title: string;
  description?: string;
  /** Billing countries the method is offered in; empty: everywhere. */
  countries: string[];
  isReusable: boolean;
  supportsDeferredIntent?: boolean;
  showSaveOption?: boolean;
  gatewayId?: string;
}

/**
 * A method with a country list is offered only to shoppers billed in one of them; the
 * checkout hides it (and drops it if chosen) when the billing country changes away.
 */
export function isOfferedIn(config: Pick<MethodConfig, 'countries'> | undefined, billingCountry: string): boolean {
  const countries = config?.countries ?? [];
  return countries.length === 0 || countries.includes(billingCountry);
}

/** Methods that cannot be kept for later: no save option. */
export const NOT_SAVABLE_TYPES: ReadonlySet<PaymentMethodType> = new Set([
  'alipay',
  'affirm',
  'afterpay_clearpay',
  'au_becs_debit',
  'boleto',
  'eps',
  'giropay',
  'multibanco',
  'p24',
  'oxxo',
  'wechat_pay',
]);

/** Where a payment form is. */
export type PaymentPage = 'checkout' | 'order-pay' | 'change-payment' | 'add-payment-method';

export interface SaveOptionContext {
  page: PaymentPage;
  isLoggedIn: boolean;
  /** The shop lets shoppers create an account while checking out. */
  isSignupOnCheckoutAllowed: boolean;
  /** The shopper ticked "Create an account" (or the shop requires one). */
  createAccount: boolean;
}

/**
 * Whether "Save payment information…" shows. Never for the methods that cannot be
 * saved, nor where saving is the point of the page; at checkout only for a shopper
 * who has (or is creating) an account.
 */
export function showsSaveOption(type: PaymentMethodType, config: Pick<MethodConfig, 'showSaveOption'> | undefined, context: SaveOptionContext): boolean {
  if (NOT_SAVABLE_TYPES.has(type) || config?.showSaveOption === false) return false;
  switch (context.page) {
    case 'checkout':
      return context.isLoggedIn || (context.isSignupOnCheckoutAllowed && context.createAccount);
    case 'order-pay':
      return context.isLoggedIn;
    default:
      return false;
  }
}

export interface TermsContext {
  saveTicked: boolean;
  cartContainsSubscription: boolean;
  subscriptionRequiresManualRenewal: boolean;
}

/**
 * The types whose terms the element's `terms` option may hide. A bank debit's mandate
 * is left to the element, which always shows it: the shopper agrees to every debit.
 */
const OPTIONAL_TERMS: ReadonlySet<string> = new Set(['card', 'ideal', 'bancontact', 'sofort', 'cashapp']);

/**
 * The provider's terms (its mandate text) for the element's `terms` option: shown for
 * reusable methods when the card is being saved, or for subscriptions that renew on
 * their own; otherwise never. Bank debits always show their mandate.
 */
export function termsOption(configs: Record<string, Pick<MethodConfig, 'isReusable'>>, context: TermsContext): Record<string, 'always' | 'never'> {
  const shown = context.saveTicked || (context.cartContainsSubscription && !context.subscriptionRequiresManualRenewal);
  const terms: Record<string, 'always' | 'never'> = {};
  for (const [type, config] of Object.entries(configs)) {
    if (config.isReusable && OPTIONAL_TERMS.has(type)) terms[type] = shown ? 'always' : 'never';
  }
  return terms;
}

/** Nothing to charge now (a free trial, a 100% coupon, adding a card): the element sets up instead. */
export function elementMode(totalMinor: number): 'setup' | 'payment' {
  return totalMinor < 1 ? 'setup' : 'payment';
}

export const CASH_APP_NOTICE_THRESHOLD = 200_000;

export const CASH_APP_NOTICE =
  'Please note that, depending on your account and transaction history, Cash App Pay may reject your transaction due to its amount.';

export function showsCashAppNotice(type: PaymentMethodType, totalMinor: number): boolean {
  return type === 'cashapp' && totalMinor > CASH_APP_NOTICE_THRESHOLD;
}

export const BLIK_CODE_INVALID = 'BLIK Code is invalid';

/** A BLIK code is six digits; the error otherwise, or null when it is fine. */
export function checkBlikCode(code: string): string | null {
  return /^\d{6}$/.test(code.trim()) ? null : BLIK_CODE_INVALID;
}

type Shown = 'never' | 'auto';

export interface HiddenBillingFields {
  name: Shown;
  email: Shown;
  phone: Shown;
  address: { country: Shown; line1: Shown; line2: Shown; city: Shown; state: Shown; postalCode: Shown };
}

/**
 * The element's `fields.billingDetails`: what the shop's own form asks for, the element
 * does not ask again (and the billing details sent with the payment method carry it).
 */
export function hiddenBillingFields(enabledBillingFields: readonly string[]): HiddenBillingFields {
  const has = (...names: string[]): Shown => (names.some((name) => enabledBillingFields.includes(name)) ? 'never' : 'auto');
  return {
    name: has('billing_first_name', 'billing_last_name'),
    email: has('billing_email'),
    phone: has('billing_phone'),
    address: {
      country: has('billing_country'),
      line1: has('billing_address_1'),
      line2: has('billing_address_2'),
      city: has('billing_city'),
      state: has('billing_state'),
      postalCode: has('billing_postcode'),
    },
  };
}

export interface BillingDetails {
  name: string;
  email: string;
  phone: string;
  address: { city: string; country: string; line1: string; line2: string; postal_code: string; state: string };
}

/** The billing details sent with a new payment method: the name is first and last name. */
export function billingDetails(billing: PaymentBillingAddress): BillingDetails {
  return {
    name: `${billing.first_name ?? ''} ${billing.last_name ?? ''}`.trim(),
    email: billing.email ?? '',
    phone: billing.phone ?? '',
    address: {
      city: billing.city ?? '',
      country: billing.country ?? '',
      line1: billing.address_1 ?? '',
      line2: billing.address_2 ?? '',
      postal_code: billing.postcode ?? '',
      state: billing.state ?? '',
    },
  };
}

// The express checkout's data between the shop's shape and the provider's: the sheet's
// lines and rates, the wallet's addresses, the payment data of the order, and the
// element's options from the params (as the original's express checkout sets them).
import type {
  ExpressCheckoutPartialAddress,
  LineItem,
  ShippingRate,
  StripeElementsOptionsMode,
  StripeExpressCheckoutElementConfirmEvent,
  StripeExpressCheckoutElementOptions,
} from '@stripe/stripe-js';
import type { PaymentDataItem } from '@/types/payment-binding';
import type { StoreAddress } from '@/types/store-api';
import type { ExpressLocation, NormalizedAddresses } from '../api/express-calls';
import type { ExpressDisplayItem, ExpressParams, ExpressSheet, ExpressShippingOption } from '../api/get-express-params';

/** The sheet's lines: a discount is shown as the amount it takes off. */
export function lineItemsOf(items: ExpressDisplayItem[]): LineItem[] {
  return items.map((item) => ({ name: item.label, amount: item.key === 'total_discount' ? -Math.abs(item.amount) : item.amount }));
}

/** The shop's shipping options as the provider's rates. */
export function shippingRatesOf(options: ExpressShippingOption[]): ShippingRate[] {
  return options.map((option) => ({ id: option.id, amount: option.amount, displayName: option.displayName || option.label }));
}

/**
 * The rates the sheet opens with, before the wallet gives an address: the product
 * page's "pending" option, or the cart's shipping line as it stands.
 */
export function openingShippingRates(pending: ExpressShippingOption | undefined, items: ExpressDisplayItem[]): ShippingRate[] {
  if (pending) return shippingRatesOf([pending]);
  return items
    .filter((item) => item.key === 'total_shipping' || item.label === 'Shipping')
    .map((item) => ({ id: `rate-${item.label}`, amount: item.amount, displayName: item.label }));
}

/** Where the wallet says it ships to (the sheet gives a partial address until the payment). */
export function locationOf(address: Partial<ExpressCheckoutPartialAddress> & { line1?: string | null; line2?: string | null }): ExpressLocation {
  return {
    country: address.country ?? '',
    state: address.state ?? '',
    postcode: address.postal_code ?? '',
    city: address.city ?? '',
    address: address.line1 ?? '',
    address_2: address.line2 ?? '',
  };
}

/** "Ada Lovelace" → first and last name; the shop splits again what it is sent. */
function splitName(name: string | undefined): { first_name: string; last_name: string } {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  return { first_name: parts[0] ?? '', last_name: parts.slice(1).join(' ') };
}

const digitsOfPhone = (phone: string | undefined) => (phone ?? '').replace(/[() -]/g, '');

/**
 * The order's addresses from the wallet's payment: the billing details it collected,
 * and where it ships (the billing address when the order ships nowhere).
 */
export function addressesOf(event: Pick<StripeExpressCheckoutElementConfirmEvent, 'billingDetails' | 'shippingAddress'>): NormalizedAddresses {
  const billingDetails = event.billingDetails;
  const billingAddress = billingDetails?.address;
  const phone = digitsOfPhone(billingDetails?.phone);
  const billing: StoreAddress = {
    ...splitName(billingDetails?.name),
    company: '',
    address_1: billingAddress?.line1 ?? '',
    address_2: billingAddress?.line2 ?? '',
    city: billingAddress?.city ?? '',
    state: billingAddress?.state ?? '',
    postcode: billingAddress?.postal_code ?? '',
    country: billingAddress?.country ?? '',
    email: billingDetails?.email ?? '',
    phone,
  };
  const shipTo = event.shippingAddress;
  const shipping: Omit<StoreAddress, 'email'> = shipTo
    ? {
        ...splitName(shipTo.name),
        company: '',
        address_1: shipTo.address?.line1 ?? '',
        address_2: shipTo.address?.line2 ?? '',
        city: shipTo.address?.city ?? '',
        state: shipTo.address?.state ?? '',
        postcode: shipTo.address?.postal_code ?? '',
        country: shipTo.address?.country ?? '',
        phone,
      }
    : (({ email: _email, ...rest }) => rest)(billing);
  return { billing_address: billing, shipping_address: shipping };
}

/** The normalized addresses, each field the shop gave kept over the wallet's. */
export function withNormalized(sent: NormalizedAddresses, answer: Partial<NormalizedAddresses> | null): NormalizedAddresses {
  if (!answer) return sent;
  return {
    billing_address: { ...sent.billing_address, ...answer.billing_address },
    shipping_address: { ...sent.shipping_address, ...answer.shipping_address },
  };
}

/** The card gateway's payment data for a method made by a wallet. */
export function expressPaymentData(paymentMethodId: string, expressPaymentType: string): PaymentDataItem[] {
  return [
    { key: 'wc-stripe-payment-method', value: paymentMethodId },
    { key: 'wc-stripe-is-deferred-intent', value: '1' },
    { key: 'express_checkout_type', value: expressPaymentType },
  ];
}

/** The params' button look, as the provider's element takes it (its height kept to 40–55 px). */
export function elementOptionsOf(params: ExpressParams): StripeExpressCheckoutElementOptions {
  const theme = (wallet: 'applePay' | 'googlePay') => {
    switch (params.button.theme) {
      case 'light':
        return 'white';
      case 'light-outline':
        return wallet === 'googlePay' ? 'white' : 'white-outline';
      default:
        return 'black';
    }
  };
  const type = params.button.type === 'default' ? 'plain' : params.button.type || 'buy';
  const height = Number.parseInt(params.button.height, 10);
  return {
    paymentMethods: { applePay: 'always', googlePay: 'always', link: params.stripe.is_link_enabled ? 'auto' : 'never', paypal: 'never', amazonPay: 'never', klarna: 'never' },
    layout: { overflow: 'never' },
    buttonTheme: { applePay: theme('applePay') as 'black', googlePay: theme('googlePay') as 'black' },
    buttonType: { applePay: type as 'plain', googlePay: type as 'plain' },
    buttonHeight: Math.min(Math.max(Number.isFinite(height) ? height : 48, 40), 55),
    emailRequired: true,
    phoneNumberRequired: params.checkout.needs_payer_phone,
  };
}

/** The element group: a deferred payment of `amount` in the shop's currency, paid through the card. */
export function elementsOptionsOf(params: ExpressParams, amount: number): StripeElementsOptionsMode & { paymentMethodTypes: string[] } {
  const radius = Number.parseInt(params.button.radius, 10);
  return {
    mode: 'payment',
    amount,
    currency: params.checkout.currency_code.toLowerCase(),
    paymentMethodCreation: 'manual',
    paymentMethodTypes: params.stripe.is_link_enabled ? ['card', 'link'] : ['card'],
    appearance: { variables: { borderRadius: `${Number.isFinite(radius) ? radius : 4}px`, spacingUnit: '6px' } },
  };
}

/** What the sheet opens with, from the params: the product priced alone, or the cart. */
export function quoteOf(params: ExpressParams): { sheet: ExpressSheet; requestShipping: boolean; pendingShipping?: ExpressShippingOption } | null {
  if (params.product) return { sheet: params.product, requestShipping: params.product.requestShipping, pendingShipping: params.product.shippingOptions };
  if (params.cart) return { sheet: params.cart.order_data, requestShipping: params.cart.shipping_required };
  return null;
}

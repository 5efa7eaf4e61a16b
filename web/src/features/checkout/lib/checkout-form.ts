// The checkout form's values and how they travel: the addresses the order review
// refresh sends, and the body of the Store API checkout call.
import { settings } from '@/config/settings';
import { ADDRESS_KEYS, type AddressField, LOCATION_KEYS } from '@/lib/address-locale';
import type { Cart, ShippingPackage, StoreAddress } from '@/types/store-api';
import type { CheckoutPayload } from '../api/place-order';
import type { CustomerAddresses } from '../api/update-customer';
import type { AddressValues } from './validate';

export interface CheckoutValues {
  billing: AddressValues;
  shipping: AddressValues;
  shipToDifferentAddress: boolean;
  orderComments: string;
  createAccount: boolean;
  accountPassword: string;
  terms: boolean;
  /** The newsletter box: sign the shopper up once the order is placed. */
  newsletter: boolean;
  paymentMethod: string;
  /** Rates the shopper picked that the server has not confirmed yet, by package index. */
  shippingChoices: Record<number, string>;
}

/** How the account fields show for this visitor. */
export type AccountMode = 'none' | 'optional' | 'required';

export function accountMode(checkout = settings.checkout, loggedIn = settings.account.logged_in): AccountMode {
  if (loggedIn || !checkout.signup_at_checkout) return 'none';
  return checkout.guest_checkout ? 'optional' : 'required';
}

function fromStoreAddress(address: Partial<StoreAddress> | undefined): AddressValues {
  const values: AddressValues = {};
  for (const key of ADDRESS_KEYS) {
    const value = address?.[key];
    if (typeof value === 'string' && value !== '') values[key] = value;
  }
  return values;
}

/** The form's first values: the addresses the shop has for this customer, else the defaults. */
export function initialValues(cart: Cart | undefined, gatewayIds: string[]): CheckoutValues {
  const account = settings.account;
  const billing: AddressValues = {
    first_name: account.first_name || undefined,
    last_name: account.last_name || undefined,
    email: account.email || undefined,
    ...fromStoreAddress(cart?.billing_address),
  };
  billing.country ||= settings.checkout.default_country;
  const shipping = fromStoreAddress(cart?.shipping_address);
  shipping.country ||= billing.country;
  return {
    billing,
    shipping,
    shipToDifferentAddress: false,
    orderComments: '',
    createAccount: false,
    accountPassword: '',
    terms: false,
    newsletter: false,
    paymentMethod: gatewayIds[0] ?? '',
    shippingChoices: {},
  };
}

function storeAddress(values: AddressValues): StoreAddress {
  return {
    first_name: values.first_name ?? '',
    last_name: values.last_name ?? '',
    company: values.company ?? '',
    address_1: values.address_1 ?? '',
    address_2: values.address_2 ?? '',
    city: values.city ?? '',
    state: values.state ?? '',
    postcode: values.postcode ?? '',
    country: values.country ?? '',
    email: values.email ?? '',
    phone: values.phone ?? '',
  };
}

/** The addresses for update-customer; the billing address doubles as the shipping one unless told otherwise. */
export function customerAddresses(values: CheckoutValues): CustomerAddresses {
  const billing = storeAddress(values.billing);
  const { email: _email, ...shipping } = values.shipToDifferentAddress ? storeAddress(values.shipping) : billing;
  return { billing_address: billing, shipping_address: shipping };
}

/** The rate each package goes with: the shopper's pending pick, else the one the cart marks. */
export function chosenRates(packages: ShippingPackage[], choices: Record<number, string>): (string | null)[] {
  return packages.map((pkg, index) => {
    const pending = choices[index];
    if (pending && pkg.shipping_rates.some((rate) => rate.rate_id === pending)) return pending;
    return pkg.shipping_rates.find((rate) => rate.selected)?.rate_id ?? pkg.shipping_rates[0]?.rate_id ?? null;
  });
}

/** True when every shown, required field that decides where the order goes is filled. */
export function locationComplete(fields: AddressField[], values: AddressValues): boolean {
  return fields.every(
    (field) => !LOCATION_KEYS.has(field.key) || !field.required || field.control === 'state-hidden' || (values[field.key] ?? '').trim() !== '',
  );
}

/** Who the newsletter box signs up: the billing e-mail address and first name. */
export interface NewsletterSubscriber {
  email: string;
  name: string;
}

/**
 * Signs a subscriber up for the newsletter (the app hands in the newsletter's own
 * call). The order never waits for it: it must return at once and never throw.
 */
export type NewsletterSignUp = (subscriber: NewsletterSubscriber) => void;

/** The subscriber a placed order signs up; null unless the box was ticked. */
export function newsletterSubscriber(values: CheckoutValues): NewsletterSubscriber | null {
  const email = values.billing.email?.trim();
  return values.newsletter && email ? { email, name: values.billing.first_name?.trim() ?? '' } : null;
}

export interface PayloadOptions {
  accountMode: AccountMode;
  paymentNeeded: boolean;
}

/** The checkout as the Store API's checkout call takes it. */
export function checkoutPayload(values: CheckoutValues, options: PayloadOptions): CheckoutPayload {
  const creates = options.accountMode === 'required' || (options.accountMode === 'optional' && values.createAccount);
  return {
    ...customerAddresses(values),
    customer_note: settings.checkout.order_notes ? values.orderComments : '',
    payment_method: options.paymentNeeded ? values.paymentMethod : '',
    payment_data: [],
    create_account: creates,
    ...(creates ? { customer_password: values.accountPassword } : {}),
  };
}

import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@/config/settings';
import { type AddressLocale, addressFields } from '@/lib/address-locale';
import locale from '@/test/fixtures/address-locale.json';
import type { ShippingPackage } from '@/types/store-api';
import { accountMode, type CheckoutValues, chosenRates, customerAddresses, locationComplete, serialiseCheckout } from './checkout-form';

const table = locale as unknown as AddressLocale;
const billing = { first_name: 'Ada', last_name: 'Lovelace', country: 'US', address_1: '1 Main St', city: 'San Francisco', state: 'CA', postcode: '94110', phone: '555', email: 'ada@example.test' };

function values(overrides: Partial<CheckoutValues> = {}): CheckoutValues {
  return {
    billing,
    shipping: { first_name: 'Charles', last_name: 'Babbage', country: 'GB', address_1: '10 Downing Street', city: 'London', postcode: 'SW1A 2AA' },
    shipToDifferentAddress: false,
    orderComments: 'Ring twice',
    createAccount: false,
    accountPassword: '',
    terms: true,
    paymentMethod: 'bacs',
    shippingChoices: {},
    ...overrides,
  };
}

const pkg = (selected: string): ShippingPackage =>
  ({
    package_id: 0,
    name: 'Shipment 1',
    destination: {},
    items: [],
    shipping_rates: ['flat_rate:1', 'local_pickup:3'].map((rateId) => ({ rate_id: rateId, selected: rateId === selected })),
  }) as unknown as ShippingPackage;

const options = (overrides = {}) => ({
  billingFields: addressFields(table, 'US', 'billing'),
  shippingFields: addressFields(table, 'GB', 'shipping'),
  packages: [pkg('flat_rate:1')],
  accountMode: 'none' as const,
  termsShown: true,
  paymentNeeded: true,
  ...overrides,
});

describe('the checkout form on the wire', () => {
  it('offers accounts as the shop allows: a choice with guest checkout, a must without it', () => {
    const checkout = DEFAULT_SETTINGS.checkout;
    expect(accountMode({ ...checkout, guest_checkout: true, signup_at_checkout: true }, false)).toBe('optional');
    expect(accountMode({ ...checkout, guest_checkout: false, signup_at_checkout: true }, false)).toBe('required');
    expect(accountMode({ ...checkout, guest_checkout: true, signup_at_checkout: false }, false)).toBe('none');
    expect(accountMode({ ...checkout, guest_checkout: false, signup_at_checkout: true }, true)).toBe('none');
  });

  it('serialises the billing address, notes, shipping rate, payment method, terms and nonce', () => {
    const form = serialiseCheckout(values(), options());
    expect(form.get('billing_first_name')).toBe('Ada');
    expect(form.get('billing_state')).toBe('CA');
    expect(form.get('billing_email')).toBe('ada@example.test');
    expect(form.has('shipping_first_name')).toBe(false);
    expect(form.has('ship_to_different_address')).toBe(false);
    expect(form.get('order_comments')).toBe('Ring twice');
    expect(form.get('shipping_method[0]')).toBe('flat_rate:1');
    expect(form.get('payment_method')).toBe('bacs');
    expect(form.get('terms')).toBe('on');
    expect(form.get('terms-field')).toBe('1');
    expect(form.has('createaccount')).toBe(false);
    expect(form.has('woocommerce-process-checkout-nonce')).toBe(true);
  });

  it('adds the shipping address, the account and a pending rate choice when chosen', () => {
    const form = serialiseCheckout(
      values({ shipToDifferentAddress: true, createAccount: true, accountPassword: 's3cret!', terms: false, shippingChoices: { 0: 'local_pickup:3' } }),
      options({ accountMode: 'optional' }),
    );
    expect(form.get('ship_to_different_address')).toBe('1');
    expect(form.get('shipping_city')).toBe('London');
    // GB has no states: the field goes as an empty value.
    expect(form.get('shipping_state')).toBe('');
    expect(form.get('createaccount')).toBe('1');
    expect(form.get('account_password')).toBe('s3cret!');
    expect(form.get('shipping_method[0]')).toBe('local_pickup:3');
    expect(form.has('terms')).toBe(false);
    expect(form.get('terms-field')).toBe('1');
  });

  it('sends the billing address as the shipping one unless told otherwise', () => {
    const same = customerAddresses(values());
    expect(same.shipping_address).toEqual({ ...same.billing_address, email: undefined });
    expect('email' in same.shipping_address).toBe(false);
    const apart = customerAddresses(values({ shipToDifferentAddress: true }));
    expect(apart.shipping_address.city).toBe('London');
    expect(apart.billing_address.city).toBe('San Francisco');
  });

  it('keeps a picked rate only while the package still offers it', () => {
    expect(chosenRates([pkg('flat_rate:1')], { 0: 'local_pickup:3' })).toEqual(['local_pickup:3']);
    expect(chosenRates([pkg('flat_rate:1')], { 0: 'free_shipping:9' })).toEqual(['flat_rate:1']);
  });

  it('counts an address complete when every shown, required location field is filled', () => {
    const fields = addressFields(table, 'US', 'billing');
    expect(locationComplete(fields, billing)).toBe(true);
    expect(locationComplete(fields, { ...billing, postcode: ' ' })).toBe(false);
    // Names and contact details do not decide where an order goes.
    expect(locationComplete(fields, { ...billing, first_name: '', email: '' })).toBe(true);
    expect(locationComplete(addressFields(table, 'GB', 'billing'), { ...billing, country: 'GB', state: '' })).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@/config/settings';
import { type AddressLocale, addressFields } from '@/lib/address-locale';
import locale from '@/test/fixtures/address-locale.json';
import type { ShippingPackage } from '@/types/store-api';
import { accountMode, type CheckoutValues, chosenRates, customerAddresses, checkoutPayload, locationComplete, newsletterSubscriber } from './checkout-form';

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
    newsletter: false,
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

const options = (overrides = {}) => ({ accountMode: 'none' as const, paymentNeeded: true, ...overrides });

describe('the checkout form on the wire', () => {
  it('offers accounts as the shop allows: a choice with guest checkout, a must without it', () => {
    const checkout = DEFAULT_SETTINGS.checkout;
    expect(accountMode({ ...checkout, guest_checkout: true, signup_at_checkout: true }, false)).toBe('optional');
    expect(accountMode({ ...checkout, guest_checkout: false, signup_at_checkout: true }, false)).toBe('required');
    expect(accountMode({ ...checkout, guest_checkout: true, signup_at_checkout: false }, false)).toBe('none');
    expect(accountMode({ ...checkout, guest_checkout: false, signup_at_checkout: true }, true)).toBe('none');
  });

  it('sends the addresses, the note and the payment method, and no account by default', () => {
    const payload = checkoutPayload(values(), options());
    expect(payload.billing_address).toMatchObject({ first_name: 'Ada', state: 'CA', email: 'ada@example.test', company: '' });
    // Without a separate address the goods go to the billing one.
    expect(payload.shipping_address).toMatchObject({ city: 'San Francisco', postcode: '94110' });
    expect('email' in payload.shipping_address).toBe(false);
    expect(payload.customer_note).toBe('Ring twice');
    expect(payload.payment_method).toBe('bacs');
    expect(payload.payment_data).toEqual([]);
    expect(payload.create_account).toBe(false);
    expect('customer_password' in payload).toBe(false);
  });

  it('adds the shipping address and the account when chosen, and no payment method when nothing is to pay', () => {
    const payload = checkoutPayload(
      values({ shipToDifferentAddress: true, createAccount: true, accountPassword: 's3cret!' }),
      options({ accountMode: 'optional' }),
    );
    expect(payload.shipping_address).toMatchObject({ city: 'London', state: '', country: 'GB' });
    expect(payload.create_account).toBe(true);
    expect(payload.customer_password).toBe('s3cret!');
    expect(checkoutPayload(values({ createAccount: true }), options({ accountMode: 'none' })).create_account).toBe(false);
    expect(checkoutPayload(values(), options({ accountMode: 'required' })).create_account).toBe(true);
    expect(checkoutPayload(values(), options({ paymentNeeded: false })).payment_method).toBe('');
  });

  it('sends the billing address as the shipping one unless told otherwise', () => {
    const same = customerAddresses(values());
    expect(same.shipping_address).toEqual({ ...same.billing_address, email: undefined });
    expect('email' in same.shipping_address).toBe(false);
    const apart = customerAddresses(values({ shipToDifferentAddress: true }));
    expect(apart.shipping_address.city).toBe('London');
    expect(apart.billing_address.city).toBe('San Francisco');
  });

  it('signs the billing e-mail and first name up for the newsletter only when the box is ticked, and tells the order nothing of it', () => {
    expect(newsletterSubscriber(values())).toBeNull();
    expect(newsletterSubscriber(values({ newsletter: true }))).toEqual({ email: 'ada@example.test', name: 'Ada' });
    expect(newsletterSubscriber(values({ newsletter: true, billing: { ...billing, email: ' ' } }))).toBeNull();
    expect(JSON.stringify(checkoutPayload(values({ newsletter: true }), options()))).not.toMatch(/newsletter/i);
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

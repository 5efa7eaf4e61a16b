import { describe, expect, it } from 'vitest';
import table from '@/test/fixtures/address-locale.json';
import { type AddressLocale, addressFields, fieldTitle, statesOf } from './address-locale';

const locale = table as unknown as AddressLocale;
const ids = (country: string, kind: 'billing' | 'shipping' = 'billing') => addressFields(locale, country, kind).map((field) => field.id);
const field = (country: string, key: string, kind: 'billing' | 'shipping' = 'billing') =>
  addressFields(locale, country, kind).find((candidate) => candidate.key === key);

describe('address fields per country', () => {
  it('lays out a US billing address in the default order, with a state select, ZIP code and the contact fields last', () => {
    expect(ids('US')).toEqual([
      'billing_first_name',
      'billing_last_name',
      'billing_company',
      'billing_country',
      'billing_address_1',
      'billing_address_2',
      'billing_city',
      'billing_state',
      'billing_postcode',
      'billing_phone',
      'billing_email',
    ]);
    expect(field('US', 'state')).toMatchObject({ label: 'State', required: true, control: 'state-select' });
    expect(field('US', 'state')?.options).toContainEqual(['CA', 'California']);
    expect(field('US', 'postcode')).toMatchObject({ label: 'ZIP Code', required: true });
    expect(field('US', 'email')).toMatchObject({ control: 'email', required: true, validateEmail: true });
    expect(field('US', 'phone')).toMatchObject({ control: 'tel', validatePhone: true });
  });

  it('moves the German postcode before the city and leaves out the hidden state', () => {
    expect(ids('DE', 'shipping')).toEqual([
      'shipping_first_name',
      'shipping_last_name',
      'shipping_company',
      'shipping_country',
      'shipping_address_1',
      'shipping_address_2',
      'shipping_postcode',
      'shipping_city',
    ]);
    expect(field('DE', 'postcode')).toMatchObject({ label: 'Postcode / ZIP', priority: 65 });
  });

  it('keeps a hidden state input, not required, for a country whose state list is empty (GB)', () => {
    expect(statesOf(locale, 'GB')).toEqual([]);
    expect(field('GB', 'state')).toMatchObject({ control: 'state-hidden', required: false });
    expect(field('GB', 'postcode')).toMatchObject({ label: 'Postcode', required: true });
  });

  it('offers a free-text state with the default rules for a country the table does not know', () => {
    expect(statesOf(locale, 'XK')).toBeNull();
    expect(field('XK', 'state')).toMatchObject({ control: 'state-text', label: 'State / County', required: true });
    expect(field('XK', 'postcode')).toMatchObject({ label: 'Postcode / ZIP', priority: 90 });
    expect(ids('XK')).toHaveLength(11);
  });

  it('never gives a shipping address the e-mail or phone fields', () => {
    expect(ids('US', 'shipping')).not.toContain('shipping_email');
    expect(ids('US', 'shipping')).not.toContain('shipping_phone');
  });

  it('hides the second address line label from sight only, and names fields as the server does', () => {
    expect(field('US', 'address_2')).toMatchObject({ labelHidden: true, required: false });
    expect(fieldTitle(field('US', 'first_name')!)).toBe('Billing First name');
    expect(fieldTitle(field('US', 'city', 'shipping')!)).toBe('Shipping Town / City');
  });
});

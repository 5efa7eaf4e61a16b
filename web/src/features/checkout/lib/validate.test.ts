import { describe, expect, it } from 'vitest';
import { type AddressKind, type AddressLocale, addressFields } from '@/lib/address-locale';
import table from '@/test/fixtures/address-locale.json';
import { type AddressValues, type CheckCode, checkAddress, checkValue, hasOnlyPhoneCharacters, isEmailAddress } from './validate';

const locale = table as unknown as AddressLocale;

describe('the checkout field rules', () => {
  it('requires a filled field, ignoring surrounding spaces, and a ticked checkbox', () => {
    expect(checkValue('', { required: true })).toBe('required');
    expect(checkValue('   ', { required: true })).toBe('required');
    expect(checkValue(' Ada ', { required: true })).toBeNull();
    expect(checkValue('', { required: false })).toBeNull();
    expect(checkValue(false, { required: true })).toBe('required');
    expect(checkValue(true, { required: true })).toBeNull();
    expect(checkValue(false, { required: false })).toBeNull();
  });

  it('accepts e-mail addresses with international characters', () => {
    for (const address of [
      'ada@example.test',
      'first.last+tag@sub.example.co.uk',
      "o'brien@example.ie",
      'jörg@bücher.de',
      '用户@例子.广告',
      'θσερ@εχαμπλε.ψομ',
      'user@xn--bcher-kva.de',
      '"quoted name"@example.com',
      'a@b.co.',
    ]) {
      expect(isEmailAddress(address), address).toBe(true);
    }
  });

  it('refuses text that is not an e-mail address', () => {
    for (const address of ['plainaddress', '@example.com', 'ada@', 'ada@example', 'ada@@example.com', 'ada.@example.com', '.ada@example.com', 'a..b@example.com', 'ada@-example.com', 'ada@example-.com', 'ada@example.c0m1', 'ada example@example.com', 'ada@exa mple.com']) {
      expect(isEmailAddress(address), address).toBe(false);
    }
  });

  it('checks an e-mail address only when one is given', () => {
    expect(checkValue('', { required: false, email: true })).toBeNull();
    expect(checkValue('not-an-email', { required: false, email: true })).toBe('email');
    expect(checkValue('', { required: true, email: true })).toBe('required');
  });

  it('allows only digits, spaces and # _ - + / ( ) . in phone numbers', () => {
    for (const phone of ['', '+1 (555) 010-0100', '030/123 45.67', '#12_34', '0044\t20 7946 0000']) {
      expect(hasOnlyPhoneCharacters(phone), phone).toBe(true);
    }
    for (const phone of ['555-CALL-NOW', '+49 30 1234 ext. 5', '١٢٣', '555*0100']) {
      expect(hasOnlyPhoneCharacters(phone), phone).toBe(false);
    }
    expect(checkValue('call me', { required: true, phone: true })).toBe('phone');
  });

  it('lists the problems of a whole address in the order of its fields', () => {
    const fields = addressFields(locale, 'US', 'billing');
    const problems = checkAddress(fields, {
      first_name: 'Ada',
      last_name: '',
      country: 'US',
      address_1: '1 Main St',
      city: 'San Francisco',
      state: '',
      postcode: '94110',
      phone: 'phone',
      email: 'ada@',
    });
    expect(problems).toEqual([
      { field_id: 'billing_last_name', code: 'required', message: 'Billing Last name is a required field.' },
      { field_id: 'billing_state', code: 'required', message: 'Billing State is a required field.' },
      { field_id: 'billing_phone', code: 'phone', message: 'Billing Phone is not a valid phone number.' },
      { field_id: 'billing_email', code: 'email', message: 'Billing Email address is not a valid email address.' },
    ]);
  });

  it('does not require a state where the country has none or hides it', () => {
    const values: AddressValues = { first_name: 'A', last_name: 'B', address_1: 'x', city: 'y', postcode: 'z' };
    expect(checkAddress(addressFields(locale, 'GB', 'shipping'), { ...values, country: 'GB' })).toEqual([]);
    expect(checkAddress(addressFields(locale, 'DE', 'shipping'), { ...values, country: 'DE' })).toEqual([]);
    expect(checkAddress(addressFields(locale, 'XK', 'shipping'), { ...values, country: 'XK' }).map((p) => p.field_id)).toEqual(['shipping_state']);
  });
});

// Vectors shared with the server's tests: the same addresses, the codes each side must
// report, with the address rules the server itself uses. Only the classic checkout's
// vectors apply (the Store API has rules of its own, e.g. it never requires a phone),
// and only the codes the browser checks: the server is authoritative on postcodes,
// states and the rest. The browser's e-mail check is deliberately more lenient than
// the server's (international addresses, one-letter top-level domains), so it may
// let through what the server refuses, but never refuse what the server accepts.
interface Vector {
  name?: string;
  surface?: string;
  kind: string;
  country: string;
  fields: Record<string, string>;
  expect: { field_id: string; code: string }[];
}

const CLIENT_CODES: Record<string, CheckCode> = { required: 'required', invalid_email: 'email', invalid_phone: 'phone' };
const vectorFiles = import.meta.glob<Vector[] | { vectors: Vector[] }>('../../../../../testdata/checkout-address-vectors.json', { eager: true, import: 'default' });
const serverTables = import.meta.glob<AddressLocale>('../../../../../crates/rules/data/address-locale.json', { eager: true, import: 'default' });
const vectorFile = Object.values(vectorFiles)[0];
const serverLocale = Object.values(serverTables)[0];
const vectors: Vector[] = vectorFile ? (Array.isArray(vectorFile) ? vectorFile : vectorFile.vectors) : [];
const classic = vectors.filter((vector) => (vector.surface ?? 'classic') === 'classic');

describe('the shared checkout address vectors', () => {
  // Both files are in the repository: a path that no longer finds them must fail, not skip.
  it('finds the vectors and the locale table of the server', () => {
    expect(serverLocale).toBeDefined();
    expect(classic.length).toBeGreaterThan(0);
  });

  it.each(classic.map((vector, index) => [vector.name ?? `vector ${index}`, vector] as const))('%s', (_name, vector) => {
    const kind: AddressKind = vector.kind === 'shipping' ? 'shipping' : 'billing';
    const values: AddressValues = { country: vector.country };
    for (const [key, value] of Object.entries(vector.fields)) {
      values[key.replace(/^(billing|shipping)_/, '') as keyof AddressValues] = value;
    }
    const found = checkAddress(addressFields(serverLocale!, vector.country, kind), values).map(({ field_id, code }) => `${field_id}:${code}`);
    const expected = vector.expect.filter((item) => item.code in CLIENT_CODES).map((item) => `${item.field_id}:${CLIENT_CODES[item.code]}`);
    // A field the server refuses for its own reasons (a malformed postcode) is left out.
    const serverOnly = new Set(vector.expect.filter((item) => !(item.code in CLIENT_CODES)).map((item) => item.field_id));
    const comparable = found.filter((item) => !serverOnly.has(item.split(':')[0]!));

    const strict = (item: string) => !item.endsWith(':email');
    expect(comparable.filter(strict).sort()).toEqual(expected.filter(strict).sort());
    for (const flagged of comparable.filter((item) => !strict(item))) expect(expected).toContain(flagged);
  });
});

import { describe, expect, it } from 'vitest';
import locale from '@/test/fixtures/address-locale.json';
import type { AddressLocale } from './address-locale';
import { addressLines, formatOrderDate } from './format-address';

describe('addresses and dates on order pages', () => {
  it('puts an address on lines, naming the state and country', () => {
    expect(
      addressLines(
        { first_name: 'Ada', last_name: 'Lovelace', company: 'Analytical Engines', address_1: '1 Main St', address_2: 'Suite 2', city: 'San Francisco', state: 'CA', postcode: '94110', country: 'US' },
        locale as unknown as AddressLocale,
      ),
    ).toEqual(['Ada Lovelace', 'Analytical Engines', '1 Main St', 'Suite 2', 'San Francisco, California 94110', 'United States (US)']);
  });

  it('gives no lines for an empty address', () => {
    expect(addressLines({ first_name: '', last_name: '', country: '' })).toEqual([]);
  });

  it("shows the shop's calendar date, with or without a time zone", () => {
    expect(formatOrderDate('2026-11-22T23:59:59')).toBe('November 22, 2026');
    expect(formatOrderDate('2026-11-22T00:10:00+05:00')).toBe('November 22, 2026');
    expect(formatOrderDate('2026-01-05')).toBe('January 5, 2026');
    expect(formatOrderDate('yesterday')).toBe('yesterday');
  });
});

import { describe, expect, it } from 'vitest';
import { formatPrice, type PriceFormat } from './format-price';

const usd: PriceFormat = {
  currency_minor_unit: 2,
  currency_decimal_separator: '.',
  currency_thousand_separator: ',',
  currency_prefix: '$',
  currency_suffix: '',
};

const eur: PriceFormat = {
  currency_minor_unit: 2,
  currency_decimal_separator: ',',
  currency_thousand_separator: '.',
  currency_prefix: '',
  currency_suffix: '\u00a0€',
};

const yen: PriceFormat = { ...usd, currency_minor_unit: 0, currency_prefix: '¥' };

describe('formatting a price', () => {
  it('places the decimal separator by the minor unit and adds the prefix', () => {
    expect(formatPrice('1800', usd)).toBe('$18.00');
    expect(formatPrice('5', usd)).toBe('$0.05');
    expect(formatPrice('0', usd)).toBe('$0.00');
  });

  it('groups thousands with the thousand separator', () => {
    expect(formatPrice('123456789', usd)).toBe('$1,234,567.89');
    expect(formatPrice('100000', usd)).toBe('$1,000.00');
  });

  it('uses the suffix and the separators of currencies written after the amount', () => {
    expect(formatPrice('123456', eur)).toBe('1.234,56\u00a0€');
  });

  it('shows no decimals for a currency with minor unit 0', () => {
    expect(formatPrice('1800', yen)).toBe('¥1,800');
    expect(formatPrice('0', yen)).toBe('¥0');
  });

  it('puts the minus sign before the prefix of a negative amount', () => {
    expect(formatPrice('-540', usd)).toBe('-$5.40');
    expect(formatPrice('-1234567', eur)).toBe('-12.345,67\u00a0€');
    expect(formatPrice('-0', usd)).toBe('$0.00');
  });

  it('keeps large amounts exact, which a float would not', () => {
    expect(formatPrice('900719925474099312', usd)).toBe('$9,007,199,254,740,993.12');
  });

  it('accepts numbers and leading zeros, and gives nothing for what is not an amount', () => {
    expect(formatPrice(4200, usd)).toBe('$42.00');
    expect(formatPrice('0042', usd)).toBe('$0.42');
    expect(formatPrice('12.50', usd)).toBe('');
    expect(formatPrice('', usd)).toBe('');
  });
});

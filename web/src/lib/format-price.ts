// Money display. The API sends amounts as integer strings in minor units together
// with the currency's formatting fields; formatting works on the digits as text so
// no amount ever passes through a float.

import type { CurrencyFields } from '@/types/store-api';

export type PriceFormat = Pick<
  CurrencyFields,
  | 'currency_minor_unit'
  | 'currency_decimal_separator'
  | 'currency_thousand_separator'
  | 'currency_prefix'
  | 'currency_suffix'
>;

const INTEGER = /^-?\d+$/;

/**
 * "123456" with minor unit 2, prefix "$" and separators "," / "." gives "$1,234.56".
 * A negative amount puts the sign before the prefix ("-$5.00"), as the original shop does.
 * Anything that is not an integer string gives an empty string rather than a wrong price.
 */
export function formatPrice(amount: string | number, format: PriceFormat): string {
  const raw = String(amount).trim();
  if (!INTEGER.test(raw)) return '';

  const negative = raw.startsWith('-');
  const minorUnit = Math.max(0, Math.trunc(format.currency_minor_unit));
  const digits = raw
    .replace('-', '')
    .replace(/^0+(?=\d)/, '')
    .padStart(minorUnit + 1, '0');

  const whole = minorUnit > 0 ? digits.slice(0, -minorUnit) : digits;
  const fraction = minorUnit > 0 ? digits.slice(-minorUnit) : '';
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, format.currency_thousand_separator);
  const number = fraction ? `${grouped}${format.currency_decimal_separator}${fraction}` : grouped;
  const isZero = /^0+$/.test(digits);

  return `${negative && !isZero ? '-' : ''}${format.currency_prefix}${number}${format.currency_suffix}`;
}

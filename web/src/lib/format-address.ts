// Postal addresses and order dates as the shop shows them on order pages: one line per
// part, the country and state by name where the address rules know them.
import type { AddressLocale } from '@/lib/address-locale';
import type { StoreAddress } from '@/types/store-api';

function countryName(code: string, locale: AddressLocale | undefined): string {
  const listed = locale?.countries.find(([candidate]) => candidate === code)?.[1];
  if (listed) return listed;
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

function stateName(country: string, state: string, locale: AddressLocale | undefined): string {
  const states = locale?.states[country];
  if (states && !Array.isArray(states)) return states[state] ?? state;
  return state;
}

/** The address as lines; empty when it holds nothing postal. */
export function addressLines(address: Partial<StoreAddress> | undefined, locale?: AddressLocale): string[] {
  if (!address) return [];
  const name = [address.first_name, address.last_name].filter(Boolean).join(' ');
  const country = address.country ?? '';
  const state = address.state ? stateName(country, address.state, locale) : '';
  const place = [address.city, [state, address.postcode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const postal = [address.company, address.address_1, address.address_2, place].filter(Boolean);
  if (postal.length === 0 && !name) return [];
  return [name, ...postal, country ? countryName(country, locale) : ''].filter((line): line is string => Boolean(line));
}

const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];

/**
 * "November 22, 2026" from an ISO 8601 date. The calendar date is read as the shop wrote
 * it, whatever its time zone (or none), so a visitor elsewhere sees the shop's date.
 */
export function formatOrderDate(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!match) return iso;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (Number.isNaN(date.getTime())) return iso;
  // Spelled out here rather than by Intl, which the server's script engine lacks.
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

// The shop's address rules, one table for every country: the default fields, each
// country's overrides (labels, placeholders, required, hidden, order), the country
// list and the states. Fetched once per page load and kept for the whole visit; the
// checkout and the account's address forms build their fields from it.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { restGet } from '@/lib/api-client';

export interface LocaleField {
  label?: string;
  placeholder?: string;
  required?: boolean;
  hidden?: boolean;
  priority?: number;
  class?: string[];
  label_class?: string[];
  autocomplete?: string;
  type?: string;
  /** Extra checks the original names on the row: "email", "phone", "postcode", "state". */
  validate?: string[];
}

export interface AddressLocale {
  countries: [code: string, name: string][];
  /** A country's states; an empty list means it has none, a missing country means unknown. */
  states: Record<string, Record<string, string> | never[]>;
  default: Record<string, LocaleField>;
  /** Fields only billing addresses have (phone, e-mail). */
  billing_fields?: Record<string, LocaleField>;
  locale: Record<string, Record<string, LocaleField>>;
  i18n_required_text: string;
  i18n_optional_text: string;
}

export type AddressKind = 'billing' | 'shipping';

export type AddressFieldKey =
  | 'first_name'
  | 'last_name'
  | 'company'
  | 'country'
  | 'address_1'
  | 'address_2'
  | 'city'
  | 'state'
  | 'postcode'
  | 'phone'
  | 'email';

/** Every key, in the Store API's order: the shape of an address's values. */
export const ADDRESS_KEYS: AddressFieldKey[] = [
  'first_name',
  'last_name',
  'company',
  'address_1',
  'address_2',
  'city',
  'state',
  'postcode',
  'country',
  'email',
  'phone',
];

/** The fields whose change can alter shipping and taxes (the original's "address-field" rows). */
export const LOCATION_KEYS: ReadonlySet<AddressFieldKey> = new Set(['country', 'address_1', 'address_2', 'city', 'state', 'postcode']);

export type AddressControl = 'text' | 'email' | 'tel' | 'country' | 'state-select' | 'state-hidden' | 'state-text';

/** One field of an address form for one country, ready to render. */
export interface AddressField {
  key: AddressFieldKey;
  /** The original's name and id: `billing_first_name`, `shipping_postcode`… */
  id: string;
  label: string;
  placeholder: string;
  required: boolean;
  priority: number;
  /** Layout classes from the table: form-row-first, form-row-last, form-row-wide. */
  classes: string[];
  labelHidden: boolean;
  autocomplete: string | undefined;
  control: AddressControl;
  /** Countries or states to choose from, for the two selects. */
  options: [code: string, name: string][];
  validateEmail: boolean;
  validatePhone: boolean;
}

// Billing addresses also ask for a phone number and an e-mail address; these stand in
// when the table does not describe them.
const BILLING_EXTRAS: Partial<Record<AddressFieldKey, LocaleField>> = {
  phone: { label: 'Phone', required: true, priority: 100, class: ['form-row-wide'], autocomplete: 'tel', type: 'tel' },
  email: { label: 'Email address', required: true, priority: 110, class: ['form-row-wide'], autocomplete: 'email', type: 'email' },
};

const CONTACT_KEYS: ReadonlySet<string> = new Set(['email', 'phone']);

function isFieldKey(key: string): key is AddressFieldKey {
  return (ADDRESS_KEYS as string[]).includes(key);
}

/** The states of a country: a list, `[]` when it has none, null when the table does not know it. */
export function statesOf(locale: AddressLocale, country: string): [string, string][] | null {
  const states = locale.states[country];
  if (states === undefined || states === null) return null;
  return Array.isArray(states) ? [] : Object.entries(states);
}

/**
 * The fields of a billing or shipping form for `country`: the default table merged
 * with the country's overrides, hidden ones left out, ordered by priority (ties keep
 * the table's order).
 */
export function addressFields(locale: AddressLocale, country: string, kind: AddressKind): AddressField[] {
  const base: Record<string, LocaleField> = { ...locale.default };
  if (kind === 'billing') {
    for (const [key, extra] of Object.entries(BILLING_EXTRAS)) base[key] = { ...extra, ...base[key], ...locale.billing_fields?.[key] };
    for (const [key, field] of Object.entries(locale.billing_fields ?? {})) base[key] ??= field;
  }
  const overrides = locale.locale[country] ?? {};
  const states = statesOf(locale, country);

  const fields: AddressField[] = [];
  for (const [key, defaults] of Object.entries(base)) {
    if (!isFieldKey(key)) continue;
    if (kind === 'shipping' && CONTACT_KEYS.has(key)) continue;
    const field: LocaleField = { ...defaults, ...overrides[key] };
    if (field.hidden) continue;

    let control: AddressControl = key === 'email' ? 'email' : key === 'phone' ? 'tel' : 'text';
    let options: [string, string][] = [];
    let required = field.required ?? false;
    if (key === 'country') {
      control = 'country';
      options = locale.countries;
    } else if (key === 'state') {
      if (states === null) control = 'state-text';
      else if (states.length === 0) {
        // A country without states keeps the field as an empty hidden value.
        control = 'state-hidden';
        required = false;
      } else {
        control = 'state-select';
        options = states;
      }
    }

    fields.push({
      key,
      id: `${kind}_${key}`,
      label: field.label ?? key,
      placeholder: field.placeholder ?? '',
      required,
      priority: field.priority ?? 999,
      classes: field.class ?? ['form-row-wide'],
      labelHidden: field.label_class?.includes('screen-reader-text') ?? false,
      autocomplete: field.autocomplete,
      control,
      options,
      validateEmail: key === 'email' || (field.validate?.includes('email') ?? false),
      validatePhone: key === 'phone' || (field.validate?.includes('phone') ?? false),
    });
  }
  // Array.prototype.sort is stable, so equal priorities keep the table's order.
  return fields.sort((a, b) => a.priority - b.priority);
}

/** "Billing First name", as the shop's messages name a field. */
export function fieldTitle(field: Pick<AddressField, 'id' | 'label'>): string {
  const kind = field.id.startsWith('shipping_') ? 'Shipping' : 'Billing';
  return `${kind} ${field.label}`;
}

export const addressLocaleQueryKey = ['address-locale'] as const;

export async function getAddressLocale(): Promise<AddressLocale> {
  const { data } = await restGet<AddressLocale>('/address-locale');
  return data;
}

export function getAddressLocaleQueryOptions() {
  return queryOptions({
    queryKey: addressLocaleQueryKey,
    queryFn: getAddressLocale,
    // The rules do not change while a visitor shops.
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

export function useAddressLocale() {
  return useQuery(getAddressLocaleQueryOptions());
}

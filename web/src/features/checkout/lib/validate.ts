// The checkout's client-side field checks, as the original shop runs them on input,
// change, focusout and an explicit "validate": a required field must be filled (a
// checkbox ticked), an e-mail address must look like one (international characters
// allowed), a phone number may hold only digits, spaces and # _ - + / ( ) .
// The server stays authoritative: postcodes, states and everything else are its call.
import { type AddressField, type AddressFieldKey, fieldTitle } from '@/lib/address-locale';

export type CheckCode = 'required' | 'email' | 'phone';

export interface FieldRules {
  required: boolean;
  email?: boolean;
  phone?: boolean;
}

// Letters and digits of any script, combining marks, and the punctuation RFC 5322
// allows unquoted in a local part.
const LOCAL_ATOM = "[\\p{L}\\p{N}\\p{M}!#$%&'*+\\-/=?^_`{|}~]+";
const LOCAL_PART = `(?:${LOCAL_ATOM}(?:\\.${LOCAL_ATOM})*|"[^"\\\\\\r\\n]+")`;
// Domain labels: letters or digits, hyphens only inside. The last label (the top-level
// domain) must begin and end with a letter; a trailing dot is tolerated.
const LABEL = '[\\p{L}\\p{N}\\p{M}](?:[\\p{L}\\p{N}\\p{M}\\-]*[\\p{L}\\p{N}\\p{M}])?';
const TOP_LABEL = '\\p{L}(?:[\\p{L}\\p{N}\\p{M}\\-]*\\p{L})?';
const EMAIL = new RegExp(`^${LOCAL_PART}@(?:${LABEL}\\.)+${TOP_LABEL}\\.?$`, 'iu');

/** Every character a phone number may contain. */
const PHONE_CHARACTERS = /[\s#0-9_\-+/().]/g;

export function isEmailAddress(text: string): boolean {
  return EMAIL.test(text);
}

/** True when nothing but phone-number characters remains after removing them (empty counts). */
export function hasOnlyPhoneCharacters(text: string): boolean {
  return text.replace(PHONE_CHARACTERS, '').length === 0;
}

/** The first rule `value` breaks, or null. A checkbox's value is whether it is ticked. */
export function checkValue(value: string | boolean, rules: FieldRules): CheckCode | null {
  if (typeof value === 'boolean') return rules.required && !value ? 'required' : null;
  if (rules.required && value.trim() === '') return 'required';
  if (rules.email && value !== '' && !isEmailAddress(value.trim())) return 'email';
  if (rules.phone && !hasOnlyPhoneCharacters(value)) return 'phone';
  return null;
}

/** The message shown next to a field, in the wording of the shop's server-side errors. */
export function checkMessage(code: CheckCode, title: string): string {
  switch (code) {
    case 'required':
      return `${title} is a required field.`;
    case 'email':
      return `${title} is not a valid email address.`;
    case 'phone':
      return `${title} is not a valid phone number.`;
  }
}

export function rulesOf(field: AddressField): FieldRules {
  return { required: field.required, email: field.validateEmail, phone: field.validatePhone };
}

export type AddressValues = Partial<Record<AddressFieldKey, string>>;

/** Every problem of one address, field by field, in the form's order. */
export function checkAddress(fields: AddressField[], values: AddressValues): { field_id: string; code: CheckCode; message: string }[] {
  const problems: { field_id: string; code: CheckCode; message: string }[] = [];
  for (const field of fields) {
    if (field.control === 'state-hidden') continue;
    const code = checkValue(values[field.key] ?? '', rulesOf(field));
    if (code) problems.push({ field_id: field.id, code, message: checkMessage(code, fieldTitle(field)) });
  }
  return problems;
}

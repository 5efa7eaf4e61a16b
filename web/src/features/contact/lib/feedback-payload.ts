// What a contact form sends besides its fields, and the names the original gives the
// parts of a form on the page: the unit tag naming the form, the id of a field's
// error, the hidden fields of a free-text choice and of a quiz.
import type { ContactField } from '../api/get-contact-form';
import { normalizeUrl } from './swv-rules';

/** The form on the page: `wpcf7-f{id}-o{n}`, the n-th form the page shows. */
export const unitTagOf = (formId: number, instance = 1) => `wpcf7-f${formId}-o${instance}`;

/** The id of a field's error, as the server's `error_id` has it. */
export const errorIdOf = (unitTag: string, field: string) => `${unitTag}-ve-${field}`.replace(/[^0-9a-z_-]+/gi, '');

/** The text input beside a free-text choice. */
export const freeTextNameOf = (field: string) => `_wpcf7_free_text_${field}`;

/** The hidden field carrying the token of a quiz's question. */
export const quizTokenNameOf = (field: string) => `_wpcf7_quiz_answer_${field}`;

const FREE_TEXT_PREFIX = '_wpcf7_free_text_';

/** The field a control belongs to: `menu[]` to menu, a free-text input to its choice. */
export function fieldOfControl(name: string): string {
  const base = name.split('[')[0] ?? name;
  return base.startsWith(FREE_TEXT_PREFIX) ? base.slice(FREE_TEXT_PREFIX.length) : base;
}

/** The name a field's controls are sent under: a group of several boxes or a multiple select as `name[]`. */
export function controlNameOf(field: ContactField): string {
  const several = (field.type === 'checkbox' && !field.exclusive) || (field.type === 'select' && field.multiple);
  return several ? `${field.name}[]` : field.name;
}

export interface FormIdentity {
  id: number;
  version: string;
  locale: string;
  unitTag: string;
}

/** The hidden fields that say which form this is and whose session sends it. */
export function hiddenFields(identity: FormIdentity, postedDataHash: string, nonce: string): [name: string, value: string][] {
  return [
    ['_wpcf7', String(identity.id)],
    ['_wpcf7_version', identity.version],
    ['_wpcf7_locale', identity.locale],
    ['_wpcf7_unit_tag', identity.unitTag],
    // The shop's forms stand on pages of their own, not inside a post.
    ['_wpcf7_container_post', '0'],
    ['_wpcf7_posted_data_hash', postedDataHash],
    ['_wpnonce', nonce],
  ];
}

export interface PayloadContext {
  identity: FormIdentity;
  fields: ContactField[];
  postedDataHash: string;
  nonce: string;
}

/**
 * The body to send: what the form holds (its FormData, files included), url fields
 * with the scheme the form puts in front of a bare address, and the hidden fields
 * set from the form's state rather than taken from the page.
 */
export function feedbackPayload(sent: FormData, { identity, fields, postedDataHash, nonce }: PayloadContext): FormData {
  const urls = new Set(fields.filter((field) => field.type === 'url').map(controlNameOf));
  const payload = new FormData();
  for (const [name, value] of sent) {
    payload.append(name, typeof value === 'string' && urls.has(name) ? normalizeUrl(value) : value);
  }
  for (const [name, value] of hiddenFields(identity, postedDataHash, nonce)) payload.set(name, value);
  return payload;
}

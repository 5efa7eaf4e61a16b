// GET /wp-json/ferroshop/v1/contact-forms/{id}: a contact form as the storefront draws
// it — its fields in order, a quiz question for this visit, the honeypot's name. Its
// `nonce` is the session's that asked for it, and a page rendered on the server may be
// sent to other visitors too: sending uses the storefront's own nonce instead.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { restGet } from '@/lib/api-client';

export type ContactFieldType =
  | 'text'
  | 'email'
  | 'url'
  | 'tel'
  | 'number'
  | 'range'
  | 'date'
  | 'time'
  | 'textarea'
  | 'select'
  | 'checkbox'
  | 'radio'
  | 'acceptance'
  | 'file'
  | 'quiz';

/** A number or a date bound as the definition writes it. */
export type FieldBound = string | number;

/** One field; settings a kind does not use are absent (or ignored). */
export interface ContactField {
  type: ContactFieldType;
  name: string;
  label?: string;
  required?: boolean;
  placeholder?: string;
  autocomplete?: string;
  /** A text's first value, or the options chosen at first. */
  default?: string[];
  options?: string[];
  minlength?: number;
  maxlength?: number;
  min?: FieldBound;
  max?: FieldBound;
  step?: FieldBound;
  /** Monday 1 to Sunday 7. */
  days_of_week?: number[];
  multiple?: boolean;
  include_blank?: boolean;
  first_as_label?: boolean;
  exclusive?: boolean;
  free_text?: boolean;
  use_label_element?: boolean;
  label_first?: boolean;
  optional?: boolean;
  invert?: boolean;
  /** What an acceptance box agrees to. */
  content?: string;
  filetypes?: string[];
  /** Bytes, all of the field's files together. */
  limit?: number;
}

/** A quiz field's question for this visit and the token naming it: `{name: [question, token]}`. */
export type QuizQuestions = Record<string, [question: string, token: string]>;

export interface ContactFormDefinition {
  id: number;
  title: string;
  locale: string;
  version: string;
  fields: ContactField[];
  quiz: QuizQuestions;
  /** The field people never see (a form that fills it in is spam), or null. */
  honeypot: string | null;
  nonce: string;
}

export async function getContactForm(id: number): Promise<ContactFormDefinition> {
  const { data } = await restGet<ContactFormDefinition>(`/contact-forms/${id}`);
  return data;
}

export function getContactFormQueryOptions(id: number) {
  return queryOptions({
    queryKey: ['contact', 'form', id],
    queryFn: () => getContactForm(id),
    staleTime: 5 * 60_000,
  });
}

export function useContactForm(id: number) {
  return useQuery(getContactFormQueryOptions(id));
}

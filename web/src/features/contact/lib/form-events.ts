// The events a contact form sends as the original's do, for a theme's or a shop
// owner's scripts (a thank-you page after `wpcf7mailsent`, analytics): from the
// form's wrapper, bubbling, each with the form's identity, its status and what it
// sent (names starting with an underscore left out). In order for a submission:
// wpcf7beforesubmit; then wpcf7invalid, wpcf7unaccepted, wpcf7spam or wpcf7aborted,
// or wpcf7mailsent or wpcf7mailfailed; then wpcf7submit. A reset ends with wpcf7reset,
// and each change of status sends wpcf7statuschanged.
import type { FeedbackAnswer } from '../api/send-feedback';
import type { FormIdentity } from './feedback-payload';
import type { FormStatus } from './form-status';

export interface SubmittedInput {
  name: string;
  value: FormDataEntryValue;
}

export interface ContactFormEventDetail {
  contactFormId: number;
  pluginVersion: string;
  contactFormLocale: string;
  unitTag: string;
  containerPostId: number;
  status: FormStatus;
  inputs: SubmittedInput[];
  formData: FormData;
  apiResponse?: FeedbackAnswer;
}

/** What was sent, as the events list it: every field but the hidden ones (`_…`). */
export function submittedInputs(data: FormData): SubmittedInput[] {
  return [...data].filter(([name]) => !name.startsWith('_')).map(([name, value]) => ({ name, value }));
}

export function eventDetail(identity: FormIdentity, status: FormStatus, data: FormData, apiResponse?: FeedbackAnswer): ContactFormEventDetail {
  return {
    contactFormId: identity.id,
    pluginVersion: identity.version,
    contactFormLocale: identity.locale,
    unitTag: identity.unitTag,
    containerPostId: 0,
    status,
    inputs: submittedInputs(data),
    formData: data,
    apiResponse,
  };
}

/** The events a submission's outcome sends before `wpcf7submit`, by the status it came to. */
export function outcomeEvent(status: FormStatus): string | null {
  if (['invalid', 'unaccepted', 'spam', 'aborted'].includes(status)) return `wpcf7${status}`;
  if (status === 'sent' || status === 'failed') return `wpcf7mail${status}`;
  return null;
}

export function sendFormEvent(target: Element | null, name: string, detail: ContactFormEventDetail | { status: FormStatus; unitTag: string }): void {
  target?.dispatchEvent(new CustomEvent(name, { bubbles: true, detail }));
}

// What a contact form is doing, or what its last submission came to, named as the
// original's scripts name it on the form (`data-status` and a class): init,
// validating, submitting, resetting, and the results invalid (validation_failed),
// unaccepted (acceptance_missing), spam, aborted (no answer could be read), sent
// (mail_sent), failed (mail_failed) and payment-required. A status the shop does not
// know becomes custom-{name}.
//
// `feedbackReducer` is the whole form's state machine: each event the form meets, and
// the status, message and field errors it leads to.
import type { QuizQuestions } from '../api/get-contact-form';
import type { FeedbackAnswer } from '../api/send-feedback';
import type { InvalidField } from './swv-rules';

/** The statuses as the server's answers name them, and as the form shows them. */
const STATUSES = {
  init: 'init',
  validating: 'validating',
  submitting: 'submitting',
  resetting: 'resetting',
  validation_failed: 'invalid',
  acceptance_missing: 'unaccepted',
  spam: 'spam',
  aborted: 'aborted',
  mail_sent: 'sent',
  mail_failed: 'failed',
  payment_required: 'payment-required',
} as const;

export type KnownStatus = (typeof STATUSES)[keyof typeof STATUSES];
export type FormStatus = KnownStatus | `custom-${string}`;

const KNOWN: readonly string[] = Object.values(STATUSES);

/**
 * The form's status for a status as the server (or the form itself) names it: a known
 * name in either spelling as is, any other as custom-{name}, written with letters,
 * digits and hyphens only so it can be a class.
 */
export function statusOf(name: string): FormStatus {
  if (Object.hasOwn(STATUSES, name)) return STATUSES[name as keyof typeof STATUSES];
  if (KNOWN.includes(name)) return name as KnownStatus;
  const slug = name.replace(/[^0-9a-z]+/gi, ' ').trim().replace(/\s+/g, '-');
  return `custom-${slug}`;
}

/** The message shown when the form's own check stops a submission (the original's words). */
export const VALIDATION_ERROR_MESSAGE = 'One or more fields have an error. Please check and try again.';

export interface FeedbackState {
  status: FormStatus;
  /** Where a field's check returns the form to once done. */
  beforeValidating: FormStatus;
  /** The answer to the last submission, shown in the form's live region. */
  message: string;
  /** Fields that broke a rule or that the server refused, each with its message. */
  invalid: Record<string, string>;
  /** What the server kept last time, sent back with the next submission. */
  postedDataHash: string;
  quiz: QuizQuestions;
  /** A message went: the reset that follows ends in `sent`, not `init`. */
  resetAfterSend: boolean;
}

export type FeedbackEvent =
  /** A field changed and is checked against the schema. */
  | { type: 'validate' }
  /** The check of `fields` is done: these of them broke a rule. */
  | { type: 'checked'; fields: string[]; invalid: InvalidField[] }
  /** The form's own check stopped the submission. */
  | { type: 'refused'; invalid: InvalidField[] }
  | { type: 'submit' }
  | { type: 'answered'; answer: FeedbackAnswer }
  /** No answer could be read: offline, not JSON, an error status. */
  | { type: 'aborted'; message: string }
  /** The server answered nothing (204). */
  | { type: 'unanswered' }
  | { type: 'reset' }
  /** The refill call is done (its quiz questions, if it got any). */
  | { type: 'refilled'; quiz?: QuizQuestions };

export function initialFeedbackState(quiz: QuizQuestions = {}): FeedbackState {
  return { status: 'init', beforeValidating: 'init', message: '', invalid: {}, postedDataHash: '', quiz, resetAfterSend: false };
}

const byField = (invalid: InvalidField[]) => Object.fromEntries(invalid.map(({ field, message }) => [field, message]));

/** Statuses a field's check does not interrupt: the form is busy with the server. */
const BUSY: readonly FormStatus[] = ['submitting', 'resetting'];

export function feedbackReducer(state: FeedbackState, event: FeedbackEvent): FeedbackState {
  switch (event.type) {
    case 'validate':
      if (BUSY.includes(state.status) || state.status === 'validating') return state;
      return { ...state, status: 'validating', beforeValidating: state.status };
    case 'checked': {
      const invalid = { ...state.invalid };
      for (const field of event.fields) delete invalid[field];
      Object.assign(invalid, byField(event.invalid.filter(({ field }) => event.fields.includes(field))));
      return { ...state, invalid, status: state.status === 'validating' ? state.beforeValidating : state.status };
    }
    case 'refused':
      return { ...state, status: 'invalid', message: VALIDATION_ERROR_MESSAGE, invalid: byField(event.invalid) };
    case 'submit':
      if (state.status === 'submitting') return state;
      return { ...state, status: 'submitting', message: '', invalid: {} };
    case 'answered': {
      const { answer } = event;
      const status = statusOf(answer.status);
      return {
        ...state,
        status,
        message: answer.message,
        invalid: byField(answer.invalid_fields ?? []),
        postedDataHash: answer.posted_data_hash || state.postedDataHash,
        quiz: { ...state.quiz, ...answer.quiz },
        resetAfterSend: status === 'sent',
      };
    }
    case 'aborted':
      return { ...state, status: 'aborted', message: event.message };
    case 'unanswered':
      return { ...state, status: 'init', message: '' };
    case 'reset':
      return { ...state, status: 'resetting', invalid: {}, message: state.resetAfterSend ? state.message : '' };
    case 'refilled':
      return { ...state, status: state.resetAfterSend ? 'sent' : 'init', quiz: { ...state.quiz, ...event.quiz }, resetAfterSend: false };
  }
}

/** Whether a status is the outcome of a submission that went wrong. */
export const isFailure = (status: FormStatus) => ['invalid', 'unaccepted', 'spam', 'aborted', 'failed'].includes(status);

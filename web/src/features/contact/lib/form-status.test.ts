import { describe, expect, it } from 'vitest';
import type { FeedbackAnswer } from '../api/send-feedback';
import { type FeedbackEvent, type FeedbackState, VALIDATION_ERROR_MESSAGE, feedbackReducer, initialFeedbackState, isFailure, statusOf } from './form-status';

function answer(status: string, overrides: Partial<FeedbackAnswer> = {}): FeedbackAnswer {
  return { contact_form_id: 1, status, message: `said ${status}`, posted_data_hash: '', into: '#wpcf7-f1-o1', invalid_fields: [], ...overrides };
}

const run = (events: FeedbackEvent[], from: FeedbackState = initialFeedbackState()) => events.reduce(feedbackReducer, from);
const statuses = (events: FeedbackEvent[]) => {
  let state = initialFeedbackState();
  return events.map((event) => (state = feedbackReducer(state, event)).status);
};

describe('statusOf', () => {
  it.each([
    ['init', 'init'],
    ['validation_failed', 'invalid'],
    ['acceptance_missing', 'unaccepted'],
    ['spam', 'spam'],
    ['aborted', 'aborted'],
    ['mail_sent', 'sent'],
    ['mail_failed', 'failed'],
    ['submitting', 'submitting'],
    ['resetting', 'resetting'],
    ['validating', 'validating'],
    ['payment_required', 'payment-required'],
  ])('names the answer %j %j', (name, status) => {
    expect(statusOf(name)).toBe(status);
  });

  it('takes the form’s own names as they are', () => {
    expect(statusOf('invalid')).toBe('invalid');
    expect(statusOf('payment-required')).toBe('payment-required');
  });

  it('makes any other status custom-{name}, fit to be a class', () => {
    expect(statusOf('on_hold')).toBe('custom-on-hold');
    expect(statusOf('waiting for  staff!')).toBe('custom-waiting-for-staff');
    expect(statusOf('queued')).toBe('custom-queued');
  });

  it('counts only the results that went wrong as failures', () => {
    expect(['invalid', 'unaccepted', 'spam', 'aborted', 'failed'].every((status) => isFailure(statusOf(status)))).toBe(true);
    expect(['sent', 'init', 'submitting', 'payment-required', 'custom-queued'].some((status) => isFailure(statusOf(status)))).toBe(false);
  });
});

describe('the form’s status machine', () => {
  it('starts at init with nothing to say', () => {
    expect(initialFeedbackState({ quiz: ['2 + 2?', 't'] })).toEqual({
      status: 'init',
      beforeValidating: 'init',
      message: '',
      invalid: {},
      postedDataHash: '',
      quiz: { quiz: ['2 + 2?', 't'] },
      resetAfterSend: false,
    });
  });

  it('checks a changed field and returns to where it was', () => {
    const invalid = run([{ type: 'validate' }, { type: 'checked', fields: ['your-email'], invalid: [{ field: 'your-email', message: 'Please enter an email address.' }] }]);
    expect(invalid.status).toBe('init');
    expect(invalid.invalid).toEqual({ 'your-email': 'Please enter an email address.' });
    expect(feedbackReducer(invalid, { type: 'validate' }).status).toBe('validating');
    // Fixed: its error goes; another field's stays.
    const withName = { ...invalid, invalid: { ...invalid.invalid, 'your-name': 'Please fill out this field.' } };
    const fixed = run([{ type: 'validate' }, { type: 'checked', fields: ['your-email'], invalid: [] }], withName);
    expect(fixed.invalid).toEqual({ 'your-name': 'Please fill out this field.' });
  });

  it('keeps the result of the last submission while a field is checked', () => {
    const failed = run([{ type: 'submit' }, { type: 'answered', answer: answer('mail_failed') }]);
    expect(statuses([{ type: 'submit' }, { type: 'answered', answer: answer('mail_failed') }, { type: 'validate' }, { type: 'checked', fields: ['a'], invalid: [] }])).toEqual([
      'submitting',
      'failed',
      'validating',
      'failed',
    ]);
    expect(run([{ type: 'validate' }, { type: 'checked', fields: ['a'], invalid: [] }], failed).message).toBe('said mail_failed');
  });

  it('never lets a field’s check interrupt a submission', () => {
    const sending = run([{ type: 'submit' }]);
    expect(feedbackReducer(sending, { type: 'validate' })).toBe(sending);
    expect(run([{ type: 'validate' }, { type: 'checked', fields: ['a'], invalid: [{ field: 'a', message: 'No.' }] }], sending).status).toBe('submitting');
  });

  it('refuses a submission its own check stops, with every field’s message', () => {
    const refused = run([{ type: 'validate' }, { type: 'refused', invalid: [{ field: 'a', message: 'A!' }, { field: 'b', message: 'B!' }] }]);
    expect(refused).toMatchObject({ status: 'invalid', message: VALIDATION_ERROR_MESSAGE, invalid: { a: 'A!', b: 'B!' } });
  });

  it('clears the last answer and errors when sending, and ignores a second send meanwhile', () => {
    const failed = run([{ type: 'refused', invalid: [{ field: 'a', message: 'A!' }] }]);
    const sending = feedbackReducer(failed, { type: 'submit' });
    expect(sending).toMatchObject({ status: 'submitting', message: '', invalid: {} });
    expect(feedbackReducer(sending, { type: 'submit' })).toBe(sending);
  });

  it.each([
    ['validation_failed', 'invalid'],
    ['acceptance_missing', 'unaccepted'],
    ['spam', 'spam'],
    ['mail_failed', 'failed'],
    ['payment_required', 'payment-required'],
    ['queued_for_review', 'custom-queued-for-review'],
  ])('shows the answer %j as %j with its message', (name, status) => {
    expect(run([{ type: 'submit' }, { type: 'answered', answer: answer(name) }])).toMatchObject({ status, message: `said ${name}`, resetAfterSend: false });
  });

  it('marks the fields the server refused', () => {
    const refused = answer('validation_failed', {
      invalid_fields: [{ field: 'your-email', message: 'Please enter an email address.', idref: null, error_id: 'wpcf7-f1-o1-ve-your-email' }],
    });
    expect(run([{ type: 'submit' }, { type: 'answered', answer: refused }]).invalid).toEqual({ 'your-email': 'Please enter an email address.' });
  });

  it('keeps the hash of what was kept for the next submission, and the newest quiz questions', () => {
    const sent = run(
      [{ type: 'submit' }, { type: 'answered', answer: answer('mail_sent', { posted_data_hash: 'abc', quiz: { quiz: ['3 + 4?', 't2'] } }) }],
      initialFeedbackState({ quiz: ['2 + 2?', 't1'], other: ['Sky?', 't3'] }),
    );
    expect(sent.postedDataHash).toBe('abc');
    expect(sent.quiz).toEqual({ quiz: ['3 + 4?', 't2'], other: ['Sky?', 't3'] });
    // A refused one keeps nothing: the hash stays as it was.
    expect(run([{ type: 'submit' }, { type: 'answered', answer: answer('validation_failed') }], sent).postedDataHash).toBe('abc');
  });

  it('after a message is sent: sent, resetting, then sent again once refilled', () => {
    const events: FeedbackEvent[] = [{ type: 'submit' }, { type: 'answered', answer: answer('mail_sent') }, { type: 'reset' }, { type: 'refilled', quiz: { quiz: ['5 + 5?', 't9'] } }];
    expect(statuses(events)).toEqual(['submitting', 'sent', 'resetting', 'sent']);
    const done = run(events);
    expect(done.message).toBe('said mail_sent');
    expect(done.quiz).toEqual({ quiz: ['5 + 5?', 't9'] });
    expect(done.resetAfterSend).toBe(false);
  });

  it('a reset of its own ends at init, its message gone', () => {
    const failed = run([{ type: 'submit' }, { type: 'answered', answer: answer('mail_failed') }]);
    expect(statuses([{ type: 'submit' }, { type: 'answered', answer: answer('mail_failed') }, { type: 'reset' }, { type: 'refilled' }]).slice(2)).toEqual(['resetting', 'init']);
    expect(run([{ type: 'reset' }, { type: 'refilled' }], failed).message).toBe('');
  });

  it('an answer that could not be read aborts with its reason; no answer goes back to init', () => {
    expect(run([{ type: 'submit' }, { type: 'aborted', message: 'You are probably offline.' }])).toMatchObject({ status: 'aborted', message: 'You are probably offline.' });
    expect(run([{ type: 'submit' }, { type: 'unanswered' }])).toMatchObject({ status: 'init', message: '' });
  });
});

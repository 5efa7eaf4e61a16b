import { describe, expect, it } from 'vitest';
import type { ContactField } from '../api/get-contact-form';
import { controlNameOf, errorIdOf, feedbackPayload, fieldOfControl, freeTextNameOf, hiddenFields, quizTokenNameOf, unitTagOf } from './feedback-payload';

const identity = { id: 1, version: '5.9.8', locale: 'en_US', unitTag: unitTagOf(1) };

describe('names on the page', () => {
  it('are the original’s', () => {
    expect(unitTagOf(1)).toBe('wpcf7-f1-o1');
    expect(unitTagOf(12, 2)).toBe('wpcf7-f12-o2');
    expect(errorIdOf('wpcf7-f1-o1', 'your-email')).toBe('wpcf7-f1-o1-ve-your-email');
    expect(freeTextNameOf('colours')).toBe('_wpcf7_free_text_colours');
    expect(quizTokenNameOf('quiz-1')).toBe('_wpcf7_quiz_answer_quiz-1');
  });

  it('send a group of boxes and a multiple select as name[]', () => {
    expect(controlNameOf({ type: 'checkbox', name: 'c' })).toBe('c[]');
    expect(controlNameOf({ type: 'checkbox', name: 'c', exclusive: true })).toBe('c');
    expect(controlNameOf({ type: 'select', name: 's', multiple: true })).toBe('s[]');
    expect(controlNameOf({ type: 'select', name: 's' })).toBe('s');
    expect(controlNameOf({ type: 'radio', name: 'r' })).toBe('r');
  });

  it('lead every control back to its field', () => {
    expect(fieldOfControl('colours[]')).toBe('colours');
    expect(fieldOfControl('_wpcf7_free_text_colours')).toBe('colours');
    expect(fieldOfControl('your-name')).toBe('your-name');
  });
});

describe('the payload', () => {
  const fields: ContactField[] = [
    { type: 'text', name: 'your-name' },
    { type: 'url', name: 'website' },
    { type: 'checkbox', name: 'colours', options: ['Red', 'Blue'] },
  ];

  function sent(pairs: [string, string | File][]): FormData {
    const data = new FormData();
    for (const [name, value] of pairs) data.append(name, value);
    return data;
  }

  it('carries the hidden fields, the nonce given and the last hash', () => {
    expect(hiddenFields(identity, 'h1', 'n1')).toEqual([
      ['_wpcf7', '1'],
      ['_wpcf7_version', '5.9.8'],
      ['_wpcf7_locale', 'en_US'],
      ['_wpcf7_unit_tag', 'wpcf7-f1-o1'],
      ['_wpcf7_container_post', '0'],
      ['_wpcf7_posted_data_hash', 'h1'],
      ['_wpnonce', 'n1'],
    ]);
  });

  it('keeps the fields as sent, sets the hidden ones from the form’s state (never the page’s)', () => {
    const payload = feedbackPayload(
      sent([
        ['_wpnonce', 'someone-elses'],
        ['_wpcf7_posted_data_hash', ''],
        ['your-name', 'Ada'],
        ['colours[]', 'Red'],
        ['colours[]', 'Blue'],
      ]),
      { identity, fields, postedDataHash: 'abc', nonce: 'mine' },
    );
    expect(payload.getAll('_wpnonce')).toEqual(['mine']);
    expect(payload.getAll('_wpcf7_posted_data_hash')).toEqual(['abc']);
    expect(payload.get('_wpcf7_unit_tag')).toBe('wpcf7-f1-o1');
    expect(payload.get('_wpcf7')).toBe('1');
    expect(payload.get('your-name')).toBe('Ada');
    expect(payload.getAll('colours[]')).toEqual(['Red', 'Blue']);
  });

  it('puts http:// before a bare address with a dot, and nothing before anything else', () => {
    const payload = (value: string) => feedbackPayload(sent([['website', value]]), { identity, fields, postedDataHash: '', nonce: '' }).get('website');
    expect(payload('example.com')).toBe('http://example.com');
    expect(payload('//example.com/a')).toBe('http://example.com/a');
    expect(payload('  shop.example ')).toBe('http://shop.example');
    expect(payload('https://example.com')).toBe('https://example.com');
    expect(payload('mailto:ada@example.com')).toBe('mailto:ada@example.com');
    expect(payload('localhost')).toBe('localhost');
    expect(payload('')).toBe('');
    // Only url fields.
    expect(feedbackPayload(sent([['your-name', 'a.b']]), { identity, fields, postedDataHash: '', nonce: '' }).get('your-name')).toBe('a.b');
  });

  it('carries files as they are', () => {
    const file = new File(['hello'], 'note.txt', { type: 'text/plain' });
    const payload = feedbackPayload(sent([['attachment', file]]), { identity, fields, postedDataHash: '', nonce: '' });
    const carried = payload.get('attachment') as File;
    expect(carried.name).toBe('note.txt');
    expect(carried.size).toBe(5);
  });
});

import { describe, expect, it } from 'vitest';
import { type FileLike, type FormEntries, type SwvRule, type SwvSchema, fieldsOf, normalizeUrl, validate } from './swv-rules';

// The shared cases the server's copy of the rules is held to as well
// (tests/vectors/contact-form-rules.json): each submission keeps its rule, or breaks it
// with the rule's own message.
interface RuleCase {
  name: string;
  rule: SwvRule;
  values?: string[];
  files?: FileLike[];
  fields?: Record<string, string[]>;
  valid: boolean;
}

interface Vectors {
  rules: RuleCase[];
  normalize_url: { value: string; expected: string }[];
}

const vectorFiles = import.meta.glob<Vectors>('../../../../../tests/vectors/contact-form-rules.json', { eager: true, import: 'default' });
const vectors = Object.values(vectorFiles)[0];
const ruleCases = vectors?.rules ?? [];

/** A case's submission: its values and files under every field its rule reads, or its values by field. */
function entriesOf(vector: RuleCase): [string, string | FileLike][] {
  const entries: [string, string | FileLike][] = [];
  for (const field of fieldsOf(vector.rule)) {
    for (const value of vector.values ?? []) entries.push([field, value]);
    for (const file of vector.files ?? []) entries.push([field, file]);
  }
  for (const [field, values] of Object.entries(vector.fields ?? {})) {
    for (const value of values) entries.push([field, value]);
  }
  return entries;
}

describe('the shared contact-form vectors', () => {
  // The file is in the repository: a path that no longer finds it must fail, not skip.
  it('finds the vectors', () => {
    expect(ruleCases.length).toBeGreaterThanOrEqual(190);
    expect(vectors?.normalize_url.length).toBeGreaterThan(0);
  });

  it.each(ruleCases.map((vector) => [vector.name, vector] as const))('%s', (_name, vector) => {
    const invalid = validate({ rules: [vector.rule] }, entriesOf(vector));
    expect(invalid.map((found) => found.message)).toEqual(vector.valid ? [] : [vector.rule.error]);
  });

  it.each((vectors?.normalize_url ?? []).map((vector) => [vector.value, vector.expected] as const))('normalises %j to %j', (value, expected) => {
    expect(normalizeUrl(value)).toBe(expected);
  });
});

const contact: SwvSchema = {
  version: 'Contact Form 7 SWV Schema 2024-10',
  locale: 'en_US',
  rules: [
    { rule: 'required', field: 'your-name', error: 'Please fill out this field.' },
    { rule: 'maxlength', field: 'your-name', threshold: 10, error: 'This field has a too long input.' },
    { rule: 'required', field: 'your-email', error: 'Please fill out this field.' },
    { rule: 'email', field: 'your-email', error: 'Please enter an email address.' },
    { rule: 'tel', field: 'your-phone', error: 'Please enter a telephone number.' },
    { rule: 'minitems', field: 'topics', threshold: 2, error: 'Please pick at least two topics.' },
    { rule: 'enum', field: 'topics', accept: ['orders', 'returns', 'sizes'], error: 'Please pick from the list.' },
  ],
};

describe('validate', () => {
  it('lets a filled-in form through', () => {
    const entries: FormEntries = [
      ['your-name', 'Ada'],
      ['your-email', 'ada@example.com'],
      ['your-phone', ''],
      ['topics[]', 'orders'],
      ['topics[]', 'sizes'],
    ];
    expect(validate(contact, entries)).toEqual([]);
  });

  it('gives each field the message of the first rule it breaks, in schema order', () => {
    const entries: FormEntries = [
      ['your-name', 'Augusta Ada King'],
      ['your-email', '   '],
      ['your-phone', '12345'],
      ['topics[]', 'shipping'],
    ];
    expect(validate(contact, entries)).toEqual([
      { field: 'your-name', message: 'This field has a too long input.' },
      { field: 'your-email', message: 'Please fill out this field.' },
      { field: 'your-phone', message: 'Please enter a telephone number.' },
      { field: 'topics', message: 'Please pick at least two topics.' },
    ]);
  });

  it('shows a group’s message on its field, or on the field of the rule that failed', () => {
    const schema: SwvSchema = {
      rules: [
        {
          rule: 'any',
          field: 'contact',
          error: 'Give an e-mail address or a phone number.',
          rules: [
            { rule: 'required', field: 'email', error: 'e-mail' },
            { rule: 'required', field: 'phone', error: 'phone' },
          ],
        },
        {
          rule: 'all',
          error: 'A whole number from 1 to 10.',
          rules: [
            { rule: 'number', field: 'guests', error: 'number' },
            { rule: 'minnumber', field: 'guests', threshold: 1, error: 'min' },
            { rule: 'maxnumber', field: 'guests', threshold: 10, error: 'max' },
            { rule: 'stepnumber', field: 'guests', interval: 1, error: 'step' },
          ],
        },
      ],
    };
    expect(validate(schema, [['guests', '11']])).toEqual([
      { field: 'contact', message: 'Give an e-mail address or a phone number.' },
      { field: 'guests', message: 'A whole number from 1 to 10.' },
    ]);
    expect(validate(schema, [['phone', '555 0100 22'], ['guests', '4']])).toEqual([]);
  });

  it('reads a browser’s form data, files included', () => {
    const schema: SwvSchema = {
      rules: [
        { rule: 'requiredfile', field: 'upload', error: 'Please choose a file.' },
        { rule: 'file', field: 'upload', accept: ['audio/*', '.pdf'], error: 'This file type is not allowed.' },
        { rule: 'maxfilesize', field: 'upload', threshold: 10, error: 'This file is too large.' },
        { rule: 'maxitems', field: 'menu', threshold: 1, error: 'Pick one.' },
      ],
    };
    const data = new FormData();
    data.append('upload', new File([], ''));
    data.append('menu[]', 'tea');
    expect(validate(schema, data)).toEqual([{ field: 'upload', message: 'Please choose a file.' }]);

    data.set('upload', new File(['%PDF-1.7'], 'terms.PDF', { type: 'application/pdf' }));
    data.append('menu[]', 'coffee');
    expect(validate(schema, data)).toEqual([{ field: 'menu', message: 'Pick one.' }]);

    data.set('upload', new File(['%PDF-1.7 and much more'], 'terms.pdf', { type: 'application/pdf' }));
    expect(validate(schema, data)[0]).toEqual({ field: 'upload', message: 'This file is too large.' });
  });

  it('passes rules it does not know and reads settings given as numbers or strings', () => {
    const schema = {
      rules: [
        { rule: 'captcha', field: 'x', error: 'never' },
        { rule: 'stepnumber', field: 'n', base: '0.1', interval: 0.2, error: 'step' },
        { rule: 'dayofweek', field: 'd', accept: [1, '2'], error: 'weekday' },
      ],
    } as unknown as SwvSchema;
    expect(validate(schema, [['n', '0.5'], ['d', '2024-07-02']])).toEqual([]);
    expect(validate(schema, [['n', '0.6'], ['d', '2024-07-03']]).map((found) => found.message)).toEqual(['step', 'weekday']);
  });
});

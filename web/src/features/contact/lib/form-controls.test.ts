import { describe, expect, it } from 'vitest';
import type { ContactField } from '../api/get-contact-form';
import { acceptanceGiven, characterCount, exclusiveChoice, freeTextOpen, initialControls, readControls } from './form-controls';

const acceptance = (name: string, extra: Partial<ContactField> = {}): ContactField => ({ type: 'acceptance', name, ...extra });

describe('acceptance boxes', () => {
  const ticked = (...names: string[]) => (name: string) => names.includes(name);

  it('hold the form back until every required box is ticked', () => {
    const fields = [acceptance('terms'), acceptance('privacy'), { type: 'text', name: 'your-name' } as ContactField];
    expect(acceptanceGiven(fields, ticked())).toBe(false);
    expect(acceptanceGiven(fields, ticked('terms'))).toBe(false);
    expect(acceptanceGiven(fields, ticked('terms', 'privacy'))).toBe(true);
  });

  it('want an inverted box left unticked', () => {
    const fields = [acceptance('no-marketing', { invert: true })];
    expect(acceptanceGiven(fields, ticked())).toBe(true);
    expect(acceptanceGiven(fields, ticked('no-marketing'))).toBe(false);
  });

  it('ignore optional boxes, inverted or not', () => {
    const fields = [acceptance('news', { optional: true }), acceptance('odd', { optional: true, invert: true })];
    expect(acceptanceGiven(fields, ticked())).toBe(true);
    expect(acceptanceGiven(fields, ticked('odd'))).toBe(true);
  });

  it('let a form without any be sent', () => {
    expect(acceptanceGiven([{ type: 'email', name: 'your-email' }], ticked())).toBe(true);
  });
});

describe('exclusive checkboxes', () => {
  it('untick the others when one is ticked', () => {
    expect(exclusiveChoice(['Red', 'Blue'], 'Blue', true)).toEqual(['Blue']);
    expect(exclusiveChoice([], 'Red', true)).toEqual(['Red']);
  });

  it('leave none ticked when the ticked one is unticked', () => {
    expect(exclusiveChoice([], 'Red', false)).toEqual([]);
    expect(exclusiveChoice(['Red'], 'Red', false)).toEqual([]);
  });
});

describe('free-text choices', () => {
  const field: ContactField = { type: 'radio', name: 'heard', options: ['Search', 'A friend', 'Other'], free_text: true };

  it('open their input only while the last option is chosen', () => {
    expect(freeTextOpen(field, ['Other'])).toBe(true);
    expect(freeTextOpen(field, ['Search'])).toBe(false);
    expect(freeTextOpen(field, [])).toBe(false);
  });

  it('have no input on a field without free text', () => {
    expect(freeTextOpen({ ...field, free_text: false }, ['Other'])).toBe(false);
  });
});

describe('character counts', () => {
  it('count against the maximum and flag too long', () => {
    expect(characterCount('hello', { maxlength: 10 })).toMatchObject({ count: 5, maximum: 10, tooLong: false, tooShort: false, text: '5 of 10 characters' });
    expect(characterCount('hello world', { maxlength: 10 })).toMatchObject({ count: 11, tooLong: true });
  });

  it('flag too short against the minimum, but not an empty field', () => {
    expect(characterCount('hi', { minlength: 5 })).toMatchObject({ tooShort: true, text: '2 characters, at least 5' });
    expect(characterCount('', { minlength: 5 })).toMatchObject({ tooShort: false });
    expect(characterCount('hello', { minlength: 5, maxlength: 8 })).toMatchObject({ tooShort: false, tooLong: false, text: '5 of 8 characters, at least 5' });
  });

  it('count a CRLF line break once, as the rules do', () => {
    expect(characterCount('a\r\nb', { maxlength: 3 }).count).toBe(3);
    expect(characterCount('a', { maxlength: 3 }).text).toBe('1 of 3 characters');
  });
});

describe('the controls of a form', () => {
  const fields: ContactField[] = [
    { type: 'textarea', name: 'message', maxlength: 20, default: ['Hi'] },
    { type: 'checkbox', name: 'colours', options: ['Red', 'Other'], free_text: true, default: ['Other'] },
    { type: 'range', name: 'rating', min: 0, max: 10, default: ['4'] },
    acceptance('terms'),
  ];

  it('start as the definition has them', () => {
    expect(initialControls(fields)).toEqual({ accepted: false, freeText: { colours: true }, texts: { message: 'Hi' }, ranges: { rating: '4' } });
  });

  it('follow the form’s elements', () => {
    document.body.innerHTML = `
      <form>
        <textarea name="message">Hello there</textarea>
        <input type="checkbox" name="colours[]" value="Red" checked>
        <input type="checkbox" name="colours[]" value="Other">
        <input type="text" name="_wpcf7_free_text_colours">
        <input type="range" name="rating" min="0" max="10" value="7">
        <input type="checkbox" name="terms" value="1" checked>
      </form>`;
    const form = document.querySelector('form')!;
    expect(readControls(form, fields)).toEqual({ accepted: true, freeText: { colours: false }, texts: { message: 'Hello there' }, ranges: { rating: '7' } });
  });
});

import { describe, expect, it } from 'vitest';
import { hasSettings, missingSupport } from './browser-support';

const everything = { fetch: () => {}, FormData: function FormData() {}, NodeList: { prototype: { forEach: () => {} } } };

describe('what the form’s scripts need of the browser', () => {
  it('is all there in this one', () => {
    expect(missingSupport(window)).toBeNull();
    expect(missingSupport(everything, { replaceAll: () => {} })).toBeNull();
  });

  it('names the first thing missing, in the original’s words', () => {
    expect(missingSupport({ ...everything, fetch: undefined })).toBe('Your browser does not support window.fetch().');
    expect(missingSupport({ ...everything, FormData: undefined })).toBe('Your browser does not support window.FormData().');
    expect(missingSupport({ ...everything, NodeList: { prototype: {} } })).toBe('Your browser does not support NodeList.forEach().');
    expect(missingSupport(everything, {})).toBe('Your browser does not support String.replaceAll().');
  });
});

describe('a form’s settings', () => {
  it('need an id, fields, a version and a locale', () => {
    expect(hasSettings({ id: 1, fields: [], version: '5.9.8', locale: 'en_US' })).toBe(true);
    expect(hasSettings({ id: 1, version: '5.9.8', locale: 'en_US' })).toBe(false);
    expect(hasSettings({ fields: [], version: '5.9.8', locale: 'en_US' })).toBe(false);
    expect(hasSettings(null)).toBe(false);
    expect(hasSettings('')).toBe(false);
  });
});

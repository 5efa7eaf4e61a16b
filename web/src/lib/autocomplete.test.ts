import { describe, expect, it } from 'vitest';
import { autocompleteHint } from './autocomplete';

describe('autocomplete hints', () => {
  it('keeps one field name, with its qualifiers', () => {
    expect(autocompleteHint('email username')).toBe('email');
    expect(autocompleteHint('billing address-line1')).toBe('billing address-line1');
    expect(autocompleteHint('section-gift shipping postal-code')).toBe('section-gift shipping postal-code');
    expect(autocompleteHint('tel')).toBe('tel');
    expect(autocompleteHint('')).toBe('');
    expect(autocompleteHint(undefined)).toBeUndefined();
  });
});

// The address rules carry the original shop's autocomplete hints, some of which name
// two fields ("email username"); browsers and assistive technology take one field per
// input, so the first is kept, with the qualifiers before it.

const QUALIFIERS = new Set(['shipping', 'billing', 'home', 'work', 'mobile', 'fax', 'pager']);

export function autocompleteHint(hint: string | undefined): string | undefined {
  if (!hint) return hint;
  const kept: string[] = [];
  for (const token of hint.trim().split(/\s+/)) {
    kept.push(token);
    if (!token.startsWith('section-') && !QUALIFIERS.has(token)) break;
  }
  return kept.join(' ');
}

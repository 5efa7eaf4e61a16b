// Names grouped under their first letter, as an A–Z index lists them: accents are
// set aside ("Émile" under E), anything that does not start with a letter A–Z goes
// under "#". Sorting compares folded keys rather than calling localeCompare, whose
// order differs between the server's engine and browsers (the page must hydrate
// unchanged).

/** The index's entries in order: A to Z, then "#". */
export const INDEX_LETTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '#'] as const;

export type IndexLetter = (typeof INDEX_LETTERS)[number];

export interface LetterGroup<T> {
  letter: IndexLetter;
  items: T[];
}

/** The name without accents, in lower case: what sorting and grouping look at. */
function fold(name: string): string {
  return name
    .trim()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** The index letter a name is listed under. */
export function letterOf(name: string): IndexLetter {
  const first = fold(name).charAt(0).toUpperCase();
  return first >= 'A' && first <= 'Z' ? (first as IndexLetter) : '#';
}

/** The items in groups by their names' first letters, groups in index order, each
 *  group's items by name; letters no name starts with have no group. */
export function groupByLetter<T>(items: readonly T[], nameOf: (item: T) => string): LetterGroup<T>[] {
  const keyed = items.map((item) => ({ item, key: fold(nameOf(item)), name: nameOf(item) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const groups = new Map<IndexLetter, T[]>();
  for (const { item, name } of keyed) {
    const letter = letterOf(name);
    const group = groups.get(letter);
    if (group) group.push(item);
    else groups.set(letter, [item]);
  }
  return INDEX_LETTERS.filter((letter) => groups.has(letter)).map((letter) => ({ letter, items: groups.get(letter)! }));
}

import { describe, expect, it } from 'vitest';
import { groupByLetter, INDEX_LETTERS, letterOf } from './letter-groups';

const names = (groups: { letter: string; items: string[] }[]) => groups.map(({ letter, items }) => `${letter}: ${items.join(', ')}`);

describe('an A–Z index', () => {
  it('lists A to Z, then # for everything else', () => {
    expect(INDEX_LETTERS).toHaveLength(27);
    expect(INDEX_LETTERS[0]).toBe('A');
    expect(INDEX_LETTERS[25]).toBe('Z');
    expect(INDEX_LETTERS[26]).toBe('#');
  });

  it('files a name under its first letter, accents and case aside', () => {
    expect(letterOf('Meridian')).toBe('M');
    expect(letterOf('  ember & Oak')).toBe('E');
    expect(letterOf('Émile')).toBe('E');
    expect(letterOf('Øresund')).toBe('#');
    expect(letterOf('3 Sprouts')).toBe('#');
    expect(letterOf('&Tradition')).toBe('#');
    expect(letterOf('')).toBe('#');
  });

  it('groups names in index order, each group sorted by name', () => {
    const groups = groupByLetter(['Trailhead Co.', 'stillwater Home', '7 Seas', 'Solace Audio', 'Émile', 'Ember & Oak', 'Stride Lab'], (name) => name);
    expect(names(groups)).toEqual(['E: Ember & Oak, Émile', 'S: Solace Audio, stillwater Home, Stride Lab', 'T: Trailhead Co.', '#: 7 Seas']);
  });

  it('leaves out letters no name starts with, and keeps the items themselves', () => {
    const brands = [
      { id: 1, name: 'Kindred Goods' },
      { id: 2, name: 'Fieldwork Paper' },
    ];
    const groups = groupByLetter(brands, (brand) => brand.name);
    expect(groups.map((group) => group.letter)).toEqual(['F', 'K']);
    expect(groups[0]!.items[0]).toBe(brands[1]);
    expect(groupByLetter([], String)).toEqual([]);
  });
});

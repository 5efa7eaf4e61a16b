import { describe, expect, it } from 'vitest';
import type { Taxonomy } from '@/types/store-api';
import { categoryTrail } from './category-trail';

const category = (id: number, parent: number, name: string) => ({ id, parent, name, slug: name.toLowerCase() }) as Taxonomy;

describe('categoryTrail', () => {
  const all = [category(1, 0, 'Clothing'), category(2, 1, 'Hoodies'), category(3, 2, 'Zip'), category(4, 0, 'Decor')];

  it('lists the ancestors root first, ending with the category', () => {
    expect(categoryTrail(3, all).map((c) => c.name)).toEqual(['Clothing', 'Hoodies', 'Zip']);
    expect(categoryTrail(4, all).map((c) => c.name)).toEqual(['Decor']);
  });

  it('is empty for an unknown category and stops on a parent loop', () => {
    expect(categoryTrail(99, all)).toEqual([]);
    const looped = [category(1, 2, 'A'), category(2, 1, 'B')];
    expect(categoryTrail(1, looped).length).toBeLessThanOrEqual(10);
  });
});

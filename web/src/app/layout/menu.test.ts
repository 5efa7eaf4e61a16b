import { describe, expect, it } from 'vitest';
import type { Taxonomy } from '@/types/store-api';
import { menuTree, tapAction, type Tap } from './menu';

const category = (id: number, name: string, parent = 0, count = 3): Taxonomy => ({
  id,
  name,
  slug: name.toLowerCase(),
  description: '',
  parent,
  count,
  image: null,
  link: '',
});

describe('the main menu', () => {
  it('lists top-level categories with products, each with its subcategories that have products', () => {
    const tree = menuTree(
      [category(1, 'Clothing'), category(2, 'Hoodies', 1), category(3, 'Tees', 1), category(4, 'Empty', 1, 0), category(5, 'Decor'), category(6, 'Uncategorized'), category(7, 'Nothing', 0, 0)],
      6,
    );
    expect(tree.map((entry) => [entry.name, entry.children.map((child) => child.name)])).toEqual([
      ['Clothing', ['Hoodies', 'Tees']],
      ['Decor', []],
    ]);
  });

  it('keeps to the number of items it has room for', () => {
    const many = Array.from({ length: 9 }, (_, index) => category(index + 1, `C${index + 1}`));
    expect(menuTree(many, 6)).toHaveLength(6);
    expect(menuTree(undefined, 6)).toEqual([]);
  });
});

describe('a tap on a menu item', () => {
  const tap = (overrides: Partial<Tap>): Tap => ({ pointerType: 'touch', viewportWidth: 1024, hasSubmenu: true, wasOpen: false, ...overrides });

  it('on a touch screen above 767 px first opens the submenu, then follows the link', () => {
    expect(tapAction(tap({}))).toBe('open');
    expect(tapAction(tap({ viewportWidth: 768 }))).toBe('open');
    expect(tapAction(tap({ wasOpen: true }))).toBe('follow');
  });

  it('follows the link at once at 767 px and below', () => {
    expect(tapAction(tap({ viewportWidth: 767 }))).toBe('follow');
    expect(tapAction(tap({ viewportWidth: 390 }))).toBe('follow');
  });

  it('follows the link for a mouse, the keyboard, or an item without a submenu', () => {
    expect(tapAction(tap({ pointerType: 'mouse' }))).toBe('follow');
    expect(tapAction(tap({ pointerType: null }))).toBe('follow');
    expect(tapAction(tap({ hasSubmenu: false }))).toBe('follow');
  });
});

// The main menu's rules, apart from its markup: which categories it lists, and what a
// tap on an item that has a submenu does on a touch screen.
import type { Taxonomy } from '@/types/store-api';

export interface MenuEntry {
  id: number;
  name: string;
  slug: string;
  /** Subcategories with products, shown in the entry's dropdown. */
  children: MenuEntry[];
}

/** Top-level categories with products (at most `max`), each with its subcategories
 *  that have products, in the order the shop lists them. */
export function menuTree(categories: Taxonomy[] | undefined, max: number): MenuEntry[] {
  const all = categories ?? [];
  const entry = (category: Taxonomy): MenuEntry => ({ id: category.id, name: category.name, slug: category.slug, children: [] });
  return all
    .filter((category) => category.parent === 0 && category.count > 0 && category.slug !== 'uncategorized')
    .slice(0, max)
    .map((top) => ({ ...entry(top), children: all.filter((child) => child.parent === top.id && child.count > 0).map(entry) }));
}

/** Touch menus behave so only on screens wider than this (the original's 767 px). */
export const TOUCH_MENU_MIN_WIDTH = 768;

export interface Tap {
  /** The pointer that pressed the link (`touch`, `mouse`, `pen`), or null for a
   *  click without one (the keyboard's Enter). */
  pointerType: string | null;
  viewportWidth: number;
  hasSubmenu: boolean;
  /** Whether the item's submenu was open before this tap. */
  wasOpen: boolean;
}

/**
 * What a click on a menu item's link does. On a touch screen wider than 767 px a
 * finger cannot hover, so the first tap on an item with a submenu opens the submenu
 * and the second follows the link; everywhere else the link is followed at once.
 */
export function tapAction({ pointerType, viewportWidth, hasSubmenu, wasOpen }: Tap): 'open' | 'follow' {
  const touch = pointerType === 'touch' || pointerType === 'pen';
  return touch && viewportWidth >= TOUCH_MENU_MIN_WIDTH && hasSubmenu && !wasOpen ? 'open' : 'follow';
}

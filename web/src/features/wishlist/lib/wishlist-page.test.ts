import { describe, expect, it } from 'vitest';
import { shareLinks } from './share-links';
import { bulkBlocked, formatAddedDate, pageAddress, pageFromSearch, variationText } from './wishlist-page';

describe('the wishlist page’s rules', () => {
  it('reads the page from ?wl_paged', () => {
    expect(pageFromSearch('?wl_paged=3')).toBe(3);
    expect(pageFromSearch('')).toBe(1);
    expect(pageFromSearch('?wl_paged=0')).toBe(1);
    expect(pageFromSearch('?wl_paged=x')).toBe(1);
    expect(pageAddress('/wishlist/', 2)).toBe('/wishlist/?wl_paged=2');
    expect(pageAddress('/wishlist/0a1b2c3d4e5f/', 1)).toBe('/wishlist/0a1b2c3d4e5f/');
  });

  it('writes the date added in site time, whatever the browser’s zone', () => {
    expect(formatAddedDate('2026-11-29T10:00:00')).toBe('November 29, 2026');
    expect(formatAddedDate('2026-01-05T23:59:59')).toBe('January 5, 2026');
  });

  it('describes a variation', () => {
    expect(variationText([{ attribute: 'Color', value: 'Blue' }, { attribute: 'Size', value: 'M' }])).toBe('Color: Blue, Size: M');
  });

  it('refuses bulk actions with nothing ticked or no action chosen', () => {
    expect(bulkBlocked(0, 'remove_selected')).toBe(true);
    expect(bulkBlocked(2, '')).toBe(true);
    expect(bulkBlocked(2, 'add_to_cart_selected')).toBe(false);
    // "Add Selected to Cart" has its action: only the ticks count.
    expect(bulkBlocked(1, null)).toBe(false);
  });

  it('builds the share links from the list’s address', () => {
    const links = Object.fromEntries(shareLinks('https://shop.test/wishlist/0a1b2c3d4e5f/', 'https://shop.test/media/a.jpg').map((l) => [l.name, l.href]));
    expect(links.facebook).toBe('https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fshop.test%2Fwishlist%2F0a1b2c3d4e5f%2F');
    expect(links.twitter).toBe('https://twitter.com/share?url=https%3A%2F%2Fshop.test%2Fwishlist%2F0a1b2c3d4e5f%2F');
    expect(links.pinterest).toBe(
      'https://pinterest.com/pin/create/button/?url=https%3A%2F%2Fshop.test%2Fwishlist%2F0a1b2c3d4e5f%2F&media=https%3A%2F%2Fshop.test%2Fmedia%2Fa.jpg',
    );
    expect(links.email).toBe('mailto:?body=https%3A%2F%2Fshop.test%2Fwishlist%2F0a1b2c3d4e5f%2F');
    expect(links.whatsapp).toBe('https://api.whatsapp.com/send?text=https%3A%2F%2Fshop.test%2Fwishlist%2F0a1b2c3d4e5f%2F');
  });
});

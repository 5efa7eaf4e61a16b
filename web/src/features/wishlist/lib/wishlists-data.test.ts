import { describe, expect, it } from 'vitest';
import { isListed } from './wishlist-store';
import { asWishlistsData, cacheVerdict, parseWishlistsData } from './wishlists-data';

const data = {
  products: {
    '12': { '7': { ID: 7, title: 'Default wishlist', status: 'share', share_key: '0a1b2c3d4e5f', in: [0] } },
    '40': { '7': { ID: 7, title: 'Default wishlist', status: 'share', share_key: '0a1b2c3d4e5f', in: [41, 43] } },
  },
  counter: 3,
};

describe('wishlist data', () => {
  it('reads the cache only when it has the server’s shape', () => {
    expect(parseWishlistsData(JSON.stringify(data))).toEqual(data);
    expect(parseWishlistsData('{"foo":1}')).toBeNull();
    expect(parseWishlistsData('not json')).toBeNull();
    expect(parseWishlistsData(null)).toBeNull();
  });

  it('takes an empty list of products sent as [] for none', () => {
    expect(asWishlistsData({ products: [], counter: '0' })).toEqual({ products: {}, counter: 0 });
  });

  it('marks a card when the product or any of its variations is listed', () => {
    expect(isListed(data, 12)).toBe(true);
    expect(isListed(data, 40)).toBe(true);
    expect(isListed(data, 99)).toBe(false);
    expect(isListed(null, 12)).toBe(false);
  });

  it('marks a product page by the variation shown', () => {
    expect(isListed(data, 12, 0)).toBe(true);
    expect(isListed(data, 40, 41)).toBe(true);
    expect(isListed(data, 40, 42)).toBe(false);
    // A variable product with no variation chosen is listed only as itself.
    expect(isListed(data, 40, 0)).toBe(false);
  });

  it('re-checks the cache against the counter cookie', () => {
    const cached = asWishlistsData(data);
    // Guests never get the cookie: their cache stands.
    expect(cacheVerdict(cached, null)).toBe('use');
    expect(cacheVerdict(cached, '3')).toBe('use');
    expect(cacheVerdict(cached, '4')).toBe('refetch');
    expect(cacheVerdict(null, '2')).toBe('refetch');
    expect(cacheVerdict(null, null)).toBe('fetch-when-used');
  });
});

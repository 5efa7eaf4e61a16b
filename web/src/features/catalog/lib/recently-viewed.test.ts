import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_RECENT, noteViewed, recentlyViewed } from './recently-viewed';

describe('recently viewed products', () => {
  beforeEach(() => window.localStorage.clear());

  it('keeps the newest first, each once', () => {
    noteViewed(3);
    noteViewed(7);
    noteViewed(3);
    expect(recentlyViewed()).toEqual([3, 7]);
  });

  it('never keeps more than the limit', () => {
    for (let id = 1; id <= MAX_RECENT + 5; id += 1) noteViewed(id);
    const list = recentlyViewed();
    expect(list).toHaveLength(MAX_RECENT);
    expect(list[0]).toBe(MAX_RECENT + 5);
  });

  it('ignores what it cannot read', () => {
    window.localStorage.setItem('ferroshop_recently_viewed', 'not json');
    expect(recentlyViewed()).toEqual([]);
    window.localStorage.setItem('ferroshop_recently_viewed', JSON.stringify([1, 'x', -2, 2.5, 4]));
    expect(recentlyViewed()).toEqual([1, 4]);
  });
});

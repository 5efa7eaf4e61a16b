import { describe, expect, it } from 'vitest';
import { resultCountText } from './result-count';

describe('the result count', () => {
  it('says no products were found when there are none', () => {
    expect(resultCountText({ total: 0, perPage: 12, page: 1 })).toBe(
      'No products were found matching your selection.',
    );
  });

  it('speaks of the single result when there is exactly one', () => {
    expect(resultCountText({ total: 1, perPage: 12, page: 1 })).toBe('Showing the single result');
  });

  it('counts all results when they fit on one page', () => {
    expect(resultCountText({ total: 7, perPage: 12, page: 1 })).toBe('Showing all 7 results');
    expect(resultCountText({ total: 12, perPage: 12, page: 1 })).toBe('Showing all 12 results');
  });

  it('gives the first and last shown of the total, joined by an en dash, when there are several pages', () => {
    expect(resultCountText({ total: 48, perPage: 12, page: 1 })).toBe('Showing 1–12 of 48 results');
    expect(resultCountText({ total: 18, perPage: 12, page: 2 })).toBe('Showing 13–18 of 18 results');
  });
});

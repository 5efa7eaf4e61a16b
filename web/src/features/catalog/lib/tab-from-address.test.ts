import { describe, expect, it } from 'vitest';
import { tabFromAddress } from './tab-from-address';

const tabs = ['description', 'additional_information', 'reviews'];
const at = (href: string) => {
  const url = new URL(href, 'https://shop.example');
  return tabFromAddress(tabs, { hash: url.hash, href: url.href });
};

describe('the tab an address opens', () => {
  it('opens the reviews for a comment marker, #reviews, #tab-reviews, or a page of reviews', () => {
    expect(at('/product/hoodie/#comment-12')).toBe('reviews');
    expect(at('/product/hoodie/#li-comment-12')).toBe('reviews');
    expect(at('/product/hoodie/#Comment-3')).toBe('reviews');
    expect(at('/product/hoodie/#reviews')).toBe('reviews');
    expect(at('/product/hoodie/#tab-reviews')).toBe('reviews');
    expect(at('/product/hoodie/?cpage=2')).toBe('reviews');
    expect(at('/product/hoodie/?attribute_pa_color=blue&cpage=2')).toBe('reviews');
    expect(at('/product/hoodie/comment-page-2/')).toBe('reviews');
  });

  it('opens the additional information for its hash, and the first tab otherwise', () => {
    expect(at('/product/hoodie/#tab-additional_information')).toBe('additional_information');
    expect(at('/product/hoodie/#tab-description')).toBe('description');
    expect(at('/product/hoodie/')).toBe('description');
    expect(at('/product/hoodie/#tab-nothing')).toBe('description');
    expect(at('/product/hoodie/#review')).toBe('description');
    expect(at('/product/hoodie/?page=2')).toBe('description');
  });

  it('falls back to the first tab when the product has no reviews tab', () => {
    expect(tabFromAddress(['description'], { hash: '#reviews', href: 'https://shop.example/p/#reviews' })).toBe('description');
    expect(tabFromAddress([], { hash: '', href: 'https://shop.example/' })).toBe('');
  });
});

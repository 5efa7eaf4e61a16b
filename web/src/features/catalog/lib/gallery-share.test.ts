import { describe, expect, it } from 'vitest';
import { absoluteImageUrl, shareLinks, sharePageUrl } from './gallery-share';

const at = (href: string) => {
  const url = new URL(href);
  return { href: url.href, origin: url.origin, pathname: url.pathname, search: url.search };
};

describe('the address the viewer shares', () => {
  it("is the page's canonical link when it names this page", () => {
    const page = at('https://shop.example/product/hoodie/?attribute_pa_color=blue#reviews');
    expect(sharePageUrl(page, 'https://shop.example/product/hoodie/')).toBe('https://shop.example/product/hoodie/');
    expect(sharePageUrl(at('https://shop.example/product/hoodie'), 'https://shop.example/product/hoodie/')).toBe(
      'https://shop.example/product/hoodie/',
    );
  });

  it("is the page's own address (without its fragment) when the canonical link names another page or site", () => {
    const page = at('https://shop.example/product/beanie/?attribute_pa_color=blue#reviews');
    expect(sharePageUrl(page, 'https://shop.example/product/hoodie/')).toBe('https://shop.example/product/beanie/?attribute_pa_color=blue');
    expect(sharePageUrl(page, 'https://elsewhere.example/product/beanie/')).toBe(
      'https://shop.example/product/beanie/?attribute_pa_color=blue',
    );
    expect(sharePageUrl(page, null)).toBe('https://shop.example/product/beanie/?attribute_pa_color=blue');
    expect(sharePageUrl(page, 'http://[bad')).toBe('https://shop.example/product/beanie/?attribute_pa_color=blue');
  });
});

describe('the share links', () => {
  const links = shareLinks({
    pageUrl: 'https://shop.example/product/hoodie/',
    imageUrl: 'https://shop.example/media/hoodie-2.svg',
    text: 'Aurora Hoodie & Co',
  });
  const href = (network: string) => links.find((l) => l.network === network)!;

  it('are Facebook, Twitter, Pinterest and download, in that order', () => {
    expect(links.map((l) => [l.network, l.label])).toEqual([
      ['facebook', 'Share on Facebook'],
      ['twitter', 'Tweet'],
      ['pinterest', 'Pin it'],
      ['download', 'Download image'],
    ]);
  });

  it('carry the page, the image and the text, encoded', () => {
    expect(href('facebook').href).toBe('https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fshop.example%2Fproduct%2Fhoodie%2F');
    expect(href('twitter').href).toBe(
      'https://twitter.com/intent/tweet?text=Aurora%20Hoodie%20%26%20Co&url=https%3A%2F%2Fshop.example%2Fproduct%2Fhoodie%2F',
    );
    const pin = new URL(href('pinterest').href);
    expect(pin.origin + pin.pathname).toBe('https://www.pinterest.com/pin/create/button/');
    expect(Object.fromEntries(pin.searchParams)).toEqual({
      url: 'https://shop.example/product/hoodie/',
      media: 'https://shop.example/media/hoodie-2.svg',
      description: 'Aurora Hoodie & Co',
    });
    expect(href('download')).toMatchObject({ href: 'https://shop.example/media/hoodie-2.svg', download: true });
    expect(links.filter((l) => l.download)).toHaveLength(1);
  });

  it("make a relative image address absolute against the page's", () => {
    expect(absoluteImageUrl('/media/hoodie-2.svg', 'https://shop.example/product/hoodie/')).toBe('https://shop.example/media/hoodie-2.svg');
    expect(absoluteImageUrl('https://shop.example/media/a.svg', 'https://shop.example/x/')).toBe('https://shop.example/media/a.svg');
  });
});

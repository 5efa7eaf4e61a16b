// The full-screen viewer's share menu (Facebook, Twitter, Pinterest, download), as
// the original's viewer offers it. Links are built only from the page's own address
// (its canonical link when that names this page) and the image's, never from
// anything the shopper typed or another host.

export type ShareNetwork = 'facebook' | 'twitter' | 'pinterest' | 'download';

export interface ShareLink {
  network: ShareNetwork;
  label: string;
  href: string;
  /** The image itself, saved rather than opened. */
  download: boolean;
}

interface PageLocation {
  href: string;
  origin: string;
  pathname: string;
  search: string;
}

const withSlash = (path: string) => (path.endsWith('/') ? path : `${path}/`);

/**
 * The address to share: the page's canonical link when it is of this origin and names
 * this page (after a move within the app the head may still name the first page), or
 * else the page's own address without its fragment.
 */
export function sharePageUrl(location: PageLocation, canonical: string | null | undefined): string {
  if (canonical) {
    try {
      const url = new URL(canonical, location.href);
      if (url.origin === location.origin && withSlash(url.pathname) === withSlash(location.pathname)) return url.href;
    } catch {
      // An unreadable canonical link: the page's own address below.
    }
  }
  return `${location.origin}${location.pathname}${location.search}`;
}

/** The image's address made absolute against the page's. */
export function absoluteImageUrl(src: string, pageHref: string): string {
  return new URL(src, pageHref).href;
}

export function shareLinks({ pageUrl, imageUrl, text }: { pageUrl: string; imageUrl: string; text: string }): ShareLink[] {
  const q = encodeURIComponent;
  return [
    { network: 'facebook', label: 'Share on Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${q(pageUrl)}`, download: false },
    { network: 'twitter', label: 'Tweet', href: `https://twitter.com/intent/tweet?text=${q(text)}&url=${q(pageUrl)}`, download: false },
    {
      network: 'pinterest',
      label: 'Pin it',
      href: `https://www.pinterest.com/pin/create/button/?url=${q(pageUrl)}&media=${q(imageUrl)}&description=${q(text)}`,
      download: false,
    },
    { network: 'download', label: 'Download image', href: imageUrl, download: true },
  ];
}

// Every address the storefront links to, in one place. Listing pages keep their
// state in the query string: ?orderby=, ?page=, ?s=.

export const paths = {
  home: () => '/',
  shop: () => '/shop',
  search: (term: string) => `/shop?s=${encodeURIComponent(term)}`,
  category: (slug: string) => `/product-category/${slug}`,
  brand: (slug: string) => `/brand/${slug}`,
  product: (slug: string) => `/product/${slug}`,
  cart: () => '/cart',
} as const;

/**
 * The in-app path of an absolute address the API sends (a permalink such as
 * http://shop.example/product/hoodie/?attribute_pa_color=blue), so links stay client-side.
 */
export function toAppPath(url: string): string {
  try {
    const parsed = new URL(url, 'http://localhost');
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

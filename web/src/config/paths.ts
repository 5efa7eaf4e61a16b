// Every address the storefront links to, in one place. Listing pages keep their
// state in the query string: ?orderby=, ?page=, ?s=.

export const paths = {
  home: () => '/',
  shop: () => '/shop',
  search: (term: string) => `/shop?s=${encodeURIComponent(term)}`,
  category: (slug: string) => `/product-category/${slug}`,
  brand: (slug: string) => `/brand/${slug}`,
  brands: () => '/brands',
  contact: () => '/contact',
  product: (slug: string) => `/product/${slug}`,
  cart: () => '/cart',
  checkout: () => '/checkout',
  orderReceived: (orderId: number | string, key: string) =>
    `/checkout/order-received/${orderId}?key=${encodeURIComponent(key)}`,
  orderPay: (orderId: number | string, key: string) =>
    `/checkout/order-pay/${orderId}?pay_for_order=true&key=${encodeURIComponent(key)}`,
  orderTracking: () => '/order-tracking',
  account: () => '/my-account',
  accountOrders: (page = 1) => (page > 1 ? `/my-account/orders/${page}` : '/my-account/orders'),
  accountViewOrder: (orderId: number | string) => `/my-account/view-order/${orderId}`,
  accountAddresses: () => '/my-account/edit-address',
  accountEditAddress: (type: 'billing' | 'shipping') => `/my-account/edit-address/${type}`,
  accountDetails: () => '/my-account/edit-account',
  accountPaymentMethods: () => '/my-account/payment-methods',
  accountAddPaymentMethod: () => '/my-account/add-payment-method',
  lostPassword: () => '/my-account/lost-password',
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

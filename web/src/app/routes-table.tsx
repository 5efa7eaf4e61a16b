// The storefront's routes, shared by the browser and the server. Each page is given
// by the caller: the browser loads a page's code when first shown (`lazy`), so a
// product page loads only what it needs; the server bundle holds every page already
// (`Component`), since rendering on the server cannot wait for code to load.
import type { RouteObject } from 'react-router';
import { AppLayout } from './layout/app-layout';
import { NotFoundPage } from './routes/not-found';
import { RouteError } from './routes/route-error';

export type PageName =
  | 'home'
  | 'shop'
  | 'category'
  | 'brand'
  | 'brands'
  | 'contact'
  | 'wishlist'
  | 'product'
  | 'cart'
  | 'checkout'
  | 'orderReceived'
  | 'orderPay'
  | 'orderTracking'
  | 'accountLayout'
  | 'accountDashboard'
  | 'accountOrders'
  | 'accountViewOrder'
  | 'accountAddresses'
  | 'accountEditAddress'
  | 'accountDetails'
  | 'accountPaymentMethods'
  | 'accountAddPaymentMethod'
  | 'lostPassword';

/** How a page's component is reached: at once, or loaded on first use. */
export type PageRoute = Pick<RouteObject, 'Component' | 'lazy'>;

export type Pages = Record<PageName, PageRoute>;

export function routeTable(pages: Pages): RouteObject[] {
  return [
    {
      path: '/',
      Component: AppLayout,
      children: [
        {
          // Errors (a page's code that failed to load, a bug) show inside the shell.
          ErrorBoundary: RouteError,
          children: [
            { index: true, ...pages.home },
            { path: 'shop', ...pages.shop },
            // Category links may be nested (/product-category/clothing/hoodies/); the last part is the slug.
            { path: 'product-category/*', ...pages.category },
            { path: 'brand/:slug', ...pages.brand },
            { path: 'brands', ...pages.brands },
            { path: 'contact', ...pages.contact },
            { path: 'wishlist', ...pages.wishlist },
            { path: 'wishlist/:key', ...pages.wishlist },
            { path: 'product/:slug', ...pages.product },
            { path: 'cart', ...pages.cart },
            { path: 'checkout', ...pages.checkout },
            { path: 'checkout/order-received/:orderId', ...pages.orderReceived },
            { path: 'checkout/order-pay/:orderId', ...pages.orderPay },
            { path: 'order-tracking', ...pages.orderTracking },
            {
              path: 'my-account',
              ...pages.accountLayout,
              children: [
                { index: true, ...pages.accountDashboard, handle: { accountTitle: 'My account' } },
                { path: 'orders/:page?', ...pages.accountOrders, handle: { accountTitle: 'Orders' } },
                { path: 'view-order/:orderId', ...pages.accountViewOrder, handle: { accountTitle: 'Orders' } },
                { path: 'edit-address', ...pages.accountAddresses, handle: { accountTitle: 'Addresses' } },
                { path: 'edit-address/:type', ...pages.accountEditAddress, handle: { accountTitle: 'Addresses' } },
                { path: 'payment-methods', ...pages.accountPaymentMethods, handle: { accountTitle: 'Payment methods' } },
                { path: 'add-payment-method', ...pages.accountAddPaymentMethod, handle: { accountTitle: 'Add payment method' } },
                { path: 'edit-account', ...pages.accountDetails, handle: { accountTitle: 'Account details' } },
                { path: 'lost-password', ...pages.lostPassword, handle: { accountTitle: 'Lost password', public: true } },
              ],
            },
            // Shared with the pages that find no product, category or brand, so not split off.
            { path: '*', Component: NotFoundPage },
          ],
        },
      ],
    },
  ];
}

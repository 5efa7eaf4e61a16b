// The browser's router. Each page is its own chunk, fetched when first shown; a page
// the server rendered has its chunk loaded before hydrating (`loadMatchedPages`), so
// the first render in the browser is the server's, with nothing left to suspend.
import type { ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { loadPaymentBox } from './card-box';
import { routeTable, type PageRoute, type Pages } from './routes-table';

const page = (load: () => Promise<{ default: ComponentType }>): PageRoute => ({
  lazy: () => load().then((module) => ({ Component: module.default })),
});

// The account pages share one chunk: its layout and one component per page.
type AccountModule = typeof import('./routes/account');
const accountPage = (name: keyof AccountModule): PageRoute => ({
  lazy: () => import('./routes/account').then((module) => ({ Component: module[name] as ComponentType })),
});

// The saved payment methods' pages: a chunk apart from the other account pages.
type PaymentMethodsModule = typeof import('./routes/account-payment-methods');
const paymentMethodsPage = (name: keyof PaymentMethodsModule): PageRoute => ({
  lazy: () => import('./routes/account-payment-methods').then((module) => ({ Component: module[name] as ComponentType })),
});

const pages: Pages = {
  home: page(() => import('./routes/home')),
  shop: page(() => import('./routes/shop')),
  category: page(() => import('./routes/category')),
  brand: page(() => import('./routes/brand')),
  brands: page(() => import('./routes/brands')),
  contact: page(() => import('./routes/contact')),
  wishlist: page(() => import('./routes/wishlist')),
  product: page(() => import('./routes/product')),
  cart: page(() => import('./routes/cart')),
  // The payment pages wait for the card box too, when the shop takes cards.
  checkout: page(() => Promise.all([import('./routes/checkout'), loadPaymentBox()]).then(([module]) => module)),
  orderReceived: page(() => import('./routes/order-received')),
  orderPay: page(() => Promise.all([import('./routes/order-pay'), loadPaymentBox()]).then(([module]) => module)),
  orderTracking: page(() => import('./routes/order-tracking')),
  accountLayout: accountPage('default'),
  accountDashboard: accountPage('DashboardPage'),
  accountOrders: accountPage('OrdersPage'),
  accountViewOrder: accountPage('ViewOrderPage'),
  accountAddresses: accountPage('AddressesPage'),
  accountEditAddress: accountPage('EditAddressPage'),
  accountDetails: accountPage('AccountDetailsPage'),
  accountPaymentMethods: paymentMethodsPage('PaymentMethodsPage'),
  accountAddPaymentMethod: paymentMethodsPage('AddPaymentMethodPage'),
  lostPassword: accountPage('LostPasswordPage'),
};

export function browserRoutes(): RouteObject[] {
  return routeTable(pages);
}

/** Loads the code of the pages `location` shows, and puts it in place of their `lazy`. */
export async function loadMatchedPages(routes: RouteObject[], location: Location): Promise<void> {
  const matches = matchRoutes(routes, location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, loaded, { lazy: undefined });
    }),
  );
}

export function createRouter(routes: RouteObject[] = browserRoutes()) {
  return createBrowserRouter(routes);
}

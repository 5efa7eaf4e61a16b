// Renders one page of the storefront on the server, with the components the browser
// runs. The page's data is found by rendering: each round renders the page, then
// fetches what the render asked for and did not have (the shop's own API, in
// process), until a render asks for nothing new. The data travels in the page, so
// the browser hydrates without fetching it again.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import type { Query } from '@tanstack/react-query';
import { providePaymentBox } from '@/app/card-box';
import { provideReviews } from '@/app/reviews-slot';
import { AppProvider } from '@/app/provider';
import { routeTable, type PageRoute, type Pages } from '@/app/routes-table';
import AccountLayout, * as account from '@/app/routes/account';
import * as accountPaymentMethods from '@/app/routes/account-payment-methods';
import BrandPage from '@/app/routes/brand';
import BrandsPage from '@/app/routes/brands';
import CartPage from '@/app/routes/cart';
import CategoryPage from '@/app/routes/category';
import CheckoutPage from '@/app/routes/checkout';
import ContactPage from '@/app/routes/contact';
import WishlistPage from '@/app/routes/wishlist';
import HomePage from '@/app/routes/home';
import OrderPayPage from '@/app/routes/order-pay';
import OrderReceivedPage from '@/app/routes/order-received';
import OrderTrackingPage from '@/app/routes/order-tracking';
import ProductPage from '@/app/routes/product';
import ShopPage from '@/app/routes/shop';
import { applyRenderSettings, parseSettings } from '@/config/settings';
import { PaymentBox } from '@/features/payments/components/payment-box';
import { ProductReviews } from '@/features/reviews/components/product-reviews';
import { resetNonce } from '@/lib/api-client';
import { writePageState } from '@/lib/page-state';
import { createQueryClient } from '@/lib/query-client';
import { installMarkupProps } from './element-props';
import { prefetchPage } from './prefetch';
import { installElementRelease } from './release-elements';

const eager = (Component: PageRoute['Component']): PageRoute => ({ Component });

// The server renders every page in one bundle: the card box is simply there.
providePaymentBox(PaymentBox);
provideReviews(ProductReviews);

const pages: Pages = {
  home: eager(HomePage),
  shop: eager(ShopPage),
  category: eager(CategoryPage),
  brand: eager(BrandPage),
  brands: eager(BrandsPage),
  contact: eager(ContactPage),
  wishlist: eager(WishlistPage),
  product: eager(ProductPage),
  cart: eager(CartPage),
  checkout: eager(CheckoutPage),
  orderReceived: eager(OrderReceivedPage),
  orderPay: eager(OrderPayPage),
  orderTracking: eager(OrderTrackingPage),
  accountLayout: eager(AccountLayout),
  accountDashboard: eager(account.DashboardPage),
  accountOrders: eager(account.OrdersPage),
  accountViewOrder: eager(account.ViewOrderPage),
  accountAddresses: eager(account.AddressesPage),
  accountEditAddress: eager(account.EditAddressPage),
  accountDetails: eager(account.AccountDetailsPage),
  accountPaymentMethods: eager(accountPaymentMethods.PaymentMethodsPage),
  accountAddPaymentMethod: eager(accountPaymentMethods.AddPaymentMethodPage),
  lostPassword: eager(account.LostPasswordPage),
};

installMarkupProps();
installElementRelease();

const handler = createStaticHandler(routeTable(pages));

/** Renders past this many rounds stop asking: the page renders with what it has. */
const MAX_ROUNDS = 6;

export interface RenderInput {
  /** The page's path and query. */
  url: string;
  /** The page's settings, as the page carries them (JSON). */
  settings: string;
}

/** The app's HTML, the dehydrated query cache (JSON), the renders it took and the API
 *  calls made: as an array of its parts, which the server reads as they are (a JSON
 *  text around them would escape the page state's every quote a second time). */
export type RenderOutput = [html: string, state: string, rounds: number, fetches: number];

function enabled(query: Query): boolean {
  const option = (query.options as { enabled?: boolean | ((query: Query) => boolean) }).enabled;
  return typeof option === 'function' ? option(query) : option !== false;
}

/** Queries a render asked for that were never fetched. */
function wanted(query: Query): boolean {
  return query.state.status === 'pending' && query.state.fetchStatus === 'idle' && enabled(query);
}

export async function render(inputJson: string): Promise<RenderOutput> {
  const input = JSON.parse(inputJson) as RenderInput;
  applyRenderSettings(parseSettings(input.settings));
  resetNonce();

  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({
    ...queryClient.getDefaultOptions(),
    queries: { ...queryClient.getDefaultOptions().queries, retry: false },
  });
  const context = await handler.query(new Request(`http://shop.invalid${input.url}`));
  if (context instanceof Response) throw new Error(`the page answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  await prefetchPage(queryClient, context);

  let html: string;
  let rounds = 0;
  let fetches = 0;
  for (;;) {
    rounds += 1;
    html = renderToString(
      <StrictMode>
        <AppProvider queryClient={queryClient}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </AppProvider>
      </StrictMode>,
    );
    const missing = queryClient.getQueryCache().getAll().filter(wanted);
    if (missing.length === 0 || rounds >= MAX_ROUNDS) break;
    fetches += missing.length;
    await Promise.all(missing.map((query) => query.fetch().catch(() => undefined)));
  }
  const output: RenderOutput = [html, JSON.stringify(writePageState(queryClient)), rounds, fetches];
  queryClient.clear();
  return output;
}

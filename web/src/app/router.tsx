// The storefront's routes. Each page is its own chunk (React.lazy), fetched when
// first shown, so a product page loads only the code it needs; the shell renders
// at once and starts its own requests meanwhile.
import { lazy } from 'react';
import { createBrowserRouter } from 'react-router';
import { AppLayout } from './layout/app-layout';
import { NotFoundPage } from './routes/not-found';
import { RouteError } from './routes/route-error';

const HomePage = lazy(() => import('./routes/home'));
const ShopPage = lazy(() => import('./routes/shop'));
const CategoryPage = lazy(() => import('./routes/category'));
const BrandPage = lazy(() => import('./routes/brand'));
const ProductPage = lazy(() => import('./routes/product'));
const CartPage = lazy(() => import('./routes/cart'));
const CheckoutPage = lazy(() => import('./routes/checkout'));
const OrderReceivedPage = lazy(() => import('./routes/order-received'));
const OrderPayPage = lazy(() => import('./routes/order-pay'));
const OrderTrackingPage = lazy(() => import('./routes/order-tracking'));

// The account pages share one chunk: its layout and one component per page.
const accountChunk = () => import('./routes/account');
const accountPage = (name: Exclude<keyof Awaited<ReturnType<typeof accountChunk>>, 'default'>) =>
  lazy(() => accountChunk().then((module) => ({ default: module[name] })));
const AccountLayout = lazy(accountChunk);
const AccountDashboardPage = accountPage('DashboardPage');
const AccountOrdersPage = accountPage('OrdersPage');
const AccountViewOrderPage = accountPage('ViewOrderPage');
const AccountAddressesPage = accountPage('AddressesPage');
const AccountEditAddressPage = accountPage('EditAddressPage');
const AccountDetailsPage = accountPage('AccountDetailsPage');
const LostPasswordPage = accountPage('LostPasswordPage');

export function createRouter() {
  return createBrowserRouter([
    {
      path: '/',
      Component: AppLayout,
      children: [
        {
          // Errors (a page's code that failed to load, a bug) show inside the shell.
          ErrorBoundary: RouteError,
          children: [
            { index: true, Component: HomePage },
            { path: 'shop', Component: ShopPage },
            // Category links may be nested (/product-category/clothing/hoodies/); the last part is the slug.
            { path: 'product-category/*', Component: CategoryPage },
            { path: 'brand/:slug', Component: BrandPage },
            { path: 'product/:slug', Component: ProductPage },
            { path: 'cart', Component: CartPage },
            { path: 'checkout', Component: CheckoutPage },
            { path: 'checkout/order-received/:orderId', Component: OrderReceivedPage },
            { path: 'checkout/order-pay/:orderId', Component: OrderPayPage },
            { path: 'order-tracking', Component: OrderTrackingPage },
            {
              path: 'my-account',
              Component: AccountLayout,
              children: [
                { index: true, Component: AccountDashboardPage, handle: { accountTitle: 'My account' } },
                { path: 'orders/:page?', Component: AccountOrdersPage, handle: { accountTitle: 'Orders' } },
                { path: 'view-order/:orderId', Component: AccountViewOrderPage, handle: { accountTitle: 'Orders' } },
                { path: 'edit-address', Component: AccountAddressesPage, handle: { accountTitle: 'Addresses' } },
                { path: 'edit-address/:type', Component: AccountEditAddressPage, handle: { accountTitle: 'Addresses' } },
                { path: 'edit-account', Component: AccountDetailsPage, handle: { accountTitle: 'Account details' } },
                { path: 'lost-password', Component: LostPasswordPage, handle: { accountTitle: 'Lost password', public: true } },
              ],
            },
            // Shared with the pages that find no product, category or brand, so not split off.
            { path: '*', Component: NotFoundPage },
          ],
        },
      ],
    },
  ]);
}

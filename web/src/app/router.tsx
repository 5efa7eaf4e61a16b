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
            // Shared with the pages that find no product, category or brand, so not split off.
            { path: '*', Component: NotFoundPage },
          ],
        },
      ],
    },
  ]);
}

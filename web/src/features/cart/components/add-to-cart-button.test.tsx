import { act, screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { settings } from '@/config/settings';
import { resetNonce } from '@/lib/api-client';
import { leavePage } from '@/lib/leave-page';
import added from '@/test/fixtures/ajax-add-to-cart.json';
import emptyCart from '@/test/fixtures/store-cart-get-new.json';
import cartWithItems from '@/test/fixtures/store-cart-get-with-items.json';
import { stubShop } from '@/test/fetch-stub';
import { jsonResponse, renderWithApp } from '@/test/render';
import { useCart } from '../api/get-cart';
import { CART_HASH_KEY } from '../lib/cart-cache';
import { AddToCartButton } from './add-to-cart-button';
import { fireEvent } from '@/test/events';

/** Stands in for the header: something on the page that shows the cart. */
function CartCount() {
  const { data } = useCart();
  return <output aria-label="Items in cart">{data?.items_count ?? '…'}</output>;
}

vi.mock('@/lib/leave-page', () => ({ leavePage: vi.fn() }));

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

describe('the add-to-cart button', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
    document.cookie = 'woocommerce_cart_hash=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });

  it('goes from idle to loading to added, and then offers a View cart link', async () => {
    const answer = deferred<Response>();
    let cart: unknown = emptyCart;
    const { sent } = stubShop(({ method, url }) => {
      if (method === 'POST' && url.includes('wc-ajax=add_to_cart')) return answer.promise;
      if (url.endsWith('/cart')) return jsonResponse(cart);
      return undefined;
    });

    renderWithApp(
      <>
        <CartCount />
        <AddToCartButton productId={15} productName="Beanie" quantity={2} label="Add “Beanie” to your cart" />
      </>,
    );
    await waitFor(() => expect(screen.getByRole('status', { name: 'Items in cart' }).textContent).toBe('0'));
    const button = screen.getByRole('button', { name: 'Add “Beanie” to your cart' });
    expect(button.dataset.state).toBe('idle');

    fireEvent.click(button);
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
    expect(button.dataset.state).toBe('loading');
    expect(screen.queryByRole('link', { name: 'View cart' })).toBeNull();

    cart = cartWithItems;
    // The shop sets its cart-hash cookie along with the answer.
    document.cookie = 'woocommerce_cart_hash=a115dd0c3ecdf81751bc1e105763a8dc; path=/';
    answer.resolve(jsonResponse(added));
    await waitFor(() => expect(button.dataset.state).toBe('added'));
    // The cart on the page is already refreshed when the button says "added".
    expect(screen.getByRole('status', { name: 'Items in cart' }).textContent).toBe('3');
    expect(button.getAttribute('aria-busy')).toBe('false');
    expect(screen.getByRole('link', { name: 'View cart' }).getAttribute('href')).toBe('/cart');

    const post = sent.find((request) => request.method === 'POST')!;
    expect(post.body).toBe('product_id=15&quantity=2');
    // The new hash is recorded for the other tabs.
    expect(localStorage.getItem(CART_HASH_KEY)).toBe('a115dd0c3ecdf81751bc1e105763a8dc');
  });

  it('announces the addition to screen readers one second after it succeeds', async () => {
    stubShop(({ method, url }) => {
      if (method === 'POST') return jsonResponse(added);
      if (url.endsWith('/cart')) return jsonResponse(cartWithItems);
      return undefined;
    });
    renderWithApp(<AddToCartButton productId={15} productName="Beanie" quantity={1} />);
    const region = document.getElementById('a11y-speak-polite')!;

    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add to cart' }).dataset.state).toBe('added'));
    expect(region.textContent).toBe('');

    await waitFor(() => expect(region.textContent).toBe('“Beanie” has been added to your cart.'), { timeout: 2000 });
  });

  it('does not offer the View cart link on the cart page', async () => {
    stubShop(({ method }) => (method === 'POST' ? jsonResponse(added) : jsonResponse(emptyCart)));
    renderWithApp(<AddToCartButton productId={15} productName="Beanie" quantity={1} />, { path: '/cart' });
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add to cart' }).dataset.state).toBe('added'));
    expect(screen.queryByRole('link', { name: 'View cart' })).toBeNull();
  });

  it('sends the shopper to the product when the shop answers with an error and a product URL', async () => {
    stubShop(() => jsonResponse({ error: true, product_url: 'http://shop.test/product/beanie/' }));
    renderWithApp(<AddToCartButton productId={15} productName="Beanie" quantity={-1} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    await waitFor(() => expect(leavePage).toHaveBeenCalledWith('http://shop.test/product/beanie/'));
    expect(screen.getByRole('button', { name: 'Add to cart' }).dataset.state).toBe('loading');
  });

  it('sends a variation as its own product id with its chosen attributes', async () => {
    const { sent } = stubShop(({ method }) => (method === 'POST' ? jsonResponse(added) : jsonResponse(cartWithItems)));
    renderWithApp(
      <AddToCartButton
        productId={35}
        variationId={35}
        attributes={{ attribute_pa_color: 'blue', attribute_logo: 'Yes' }}
        productName="Hoodie"
        quantity={1}
      />,
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    });
    await waitFor(() => expect(sent.some((request) => request.method === 'POST')).toBe(true));
    expect(new URLSearchParams(sent.find((request) => request.method === 'POST')!.body).toString()).toBe(
      'product_id=35&quantity=1&variation_id=35&attribute_pa_color=blue&attribute_logo=Yes',
    );
  });

  it('stays disabled while the shopper has not made a complete choice', () => {
    stubShop(() => undefined);
    renderWithApp(<AddToCartButton productId={12} productName="Hoodie" quantity={1} disabled />);
    expect(screen.getByRole('button', { name: 'Add to cart' }).hasAttribute('disabled')).toBe(true);
  });

  it('takes the shopper to the cart when the shop is set to redirect there after adding', async () => {
    stubShop(({ method }) => (method === 'POST' ? jsonResponse(added) : jsonResponse(cartWithItems)));
    settings.cart_redirect_after_add = 'yes';
    try {
      const { router } = renderWithApp(<AddToCartButton productId={15} productName="Beanie" quantity={1} />, { path: '/shop' });
      fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/cart'));
    } finally {
      settings.cart_redirect_after_add = 'no';
    }
  });
});

import { screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetNonce } from '@/lib/api-client';
import emptyCart from '@/test/fixtures/store-cart-get-new.json';
import cartWithItems from '@/test/fixtures/store-cart-get-with-items.json';
import removed from '@/test/fixtures/ajax-add-to-cart.json';
import removeRefused from '@/test/fixtures/ajax-remove-from-cart-bad-key.json';
import { stubShop } from '@/test/fetch-stub';
import { jsonResponse, renderWithApp } from '@/test/render';
import { fitDropdown, HeaderCart } from './header-cart';
import { fireEvent } from '@/test/events';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

/** Waits for the header to show the shop's cart (the toggle is there before it). */
async function cartShown(count: string) {
  await waitFor(() => expect(screen.getByTestId('header-cart-count').textContent).toBe(count));
}

describe('the header cart', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
  });

  it('links to the cart with the item count and the total', async () => {
    stubShop(() => jsonResponse(cartWithItems));
    renderWithApp(<HeaderCart />);
    const link = await screen.findByRole('link', { name: 'Cart: $81.00 3 items' });
    expect(link.getAttribute('href')).toBe('/cart');
    expect(screen.getByTestId('header-cart-count').textContent).toBe('3');
  });

  it('opens the mini-cart with each line, the subtotal and a View cart button, and closes on Escape', async () => {
    stubShop(() => jsonResponse(cartWithItems));
    renderWithApp(<HeaderCart />);
    await cartShown('3');
    const toggle = screen.getByRole('button', { name: 'Show cart contents' });
    fireEvent.click(toggle);

    const dropdown = screen.getByRole('region', { name: 'Cart contents' });
    const items = within(dropdown).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('2 × $18.00');
    expect(items[1]!.textContent).toContain('Logo: Yes, Color: Blue');
    expect(dropdown.textContent).toContain('Subtotal: $81.00');
    expect(within(dropdown).getByRole('link', { name: 'View cart' }).getAttribute('href')).toBe('/cart');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('region', { name: 'Cart contents' })).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });

  it('closes when the shopper clicks outside it', async () => {
    stubShop(() => jsonResponse(cartWithItems));
    renderWithApp(<HeaderCart />);
    fireEvent.click(await screen.findByRole('button', { name: 'Show cart contents' }));
    fireEvent.pointerDown(document.body);
    expect(screen.queryByRole('region', { name: 'Cart contents' })).toBeNull();
  });

  it('says when the cart is empty', async () => {
    stubShop(() => jsonResponse(emptyCart));
    renderWithApp(<HeaderCart />);
    await screen.findByRole('link', { name: 'Cart: $0.00 0 items' });
    fireEvent.click(screen.getByRole('button', { name: 'Show cart contents' }));
    expect(screen.getByText('No products in the cart.')).toBeTruthy();
  });

  it('blocks a line while it is being removed, then shows the refreshed cart', async () => {
    const answer = deferred<Response>();
    let cart: unknown = cartWithItems;
    const { sent } = stubShop(({ method, url }) => {
      if (method === 'POST' && url.includes('wc-ajax=remove_from_cart')) return answer.promise;
      return jsonResponse(cart);
    });
    renderWithApp(<HeaderCart />);
    await cartShown('3');
    fireEvent.click(screen.getByRole('button', { name: 'Show cart contents' }));

    fireEvent.click(screen.getByRole('button', { name: 'Remove Hoodie from cart' }));
    const line = screen.getByRole('button', { name: 'Remove Hoodie from cart' }).closest('li')!;
    await waitFor(() => expect(line.getAttribute('aria-busy')).toBe('true'));
    expect(within(line).getByTestId('blocking-overlay')).toBeTruthy();
    expect(new URLSearchParams(sent.find((request) => request.method === 'POST')!.body).get('cart_item_key')).toBe(
      'f4a579fd26604f6a688c2ef0e092e650',
    );

    cart = { ...cartWithItems, items: cartWithItems.items.slice(0, 1), items_count: 2 };
    answer.resolve(jsonResponse(removed));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove Hoodie from cart' })).toBeNull());
    expect(screen.getByTestId('header-cart-count').textContent).toBe('2');
  });

  it('follows the remove link to the cart page when the shop answers without fragments', async () => {
    stubShop(({ method }) => (method === 'POST' ? jsonResponse(removeRefused) : jsonResponse(cartWithItems)));
    const { router } = renderWithApp(<HeaderCart />);
    await cartShown('3');
    fireEvent.click(screen.getByRole('button', { name: 'Show cart contents' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Beanie from cart' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/cart'));
    expect(router.state.location.search).toBe('?remove_item=9bf31c7ff062936a96d3c8bd1f8f2ff3');
  });
});

describe('the header cart dropdown', () => {
  function dropdownEndingAt(bottom: number) {
    const dropdown = document.createElement('div');
    dropdown.innerHTML = '<ul data-testid="mini-cart-items"><li>Beanie</li></ul>';
    dropdown.getBoundingClientRect = () => ({ bottom }) as DOMRect;
    return { dropdown, list: dropdown.querySelector('ul')! };
  }

  it('from 768 px scrolls its list within 15em when it would run past the window', () => {
    const { dropdown, list } = dropdownEndingAt(900);
    fitDropdown(dropdown, 800, true);
    expect(list.dataset.scroll).toBe('true');
  });

  it('leaves a list that fits, or a phone’s (its dropdown scrolls as a whole), at full length', () => {
    const fits = dropdownEndingAt(700);
    fits.list.dataset.scroll = 'true';
    fitDropdown(fits.dropdown, 800, true);
    expect(fits.list.dataset.scroll).toBeUndefined();
    const phone = dropdownEndingAt(900);
    fitDropdown(phone.dropdown, 800, false);
    expect(phone.list.dataset.scroll).toBeUndefined();
  });
});

import { screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetNonce } from '@/lib/api-client';
import emptyCart from '@/test/fixtures/store-cart-get-new.json';
import cartWithItems from '@/test/fixtures/store-cart-get-with-items.json';
import staleKey from '@/test/fixtures/store-cart-remove-item-bad-key.json';
import { stubShop } from '@/test/fetch-stub';
import { jsonResponse, renderWithApp } from '@/test/render';
import { QUANTITY_UPDATE_DELAY_MS } from './cart-item-row';
import { CartView } from './cart-view';
import { fireEvent, setValue } from '@/test/events';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

const withNonce = (body: unknown, status = 200) => jsonResponse(body, { status, headers: { Nonce: 'n1' } });

describe('the cart page', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
  });

  it('says the cart is empty and offers the way back to the shop', async () => {
    stubShop(() => withNonce(emptyCart));
    renderWithApp(<CartView />, { path: '/cart' });
    expect(await screen.findByText('Your cart is currently empty.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Return to shop' }).getAttribute('href')).toBe('/shop');
  });

  it('lists each line with its options, unit price and line total, then the cart totals', async () => {
    stubShop(() => withNonce(cartWithItems));
    renderWithApp(<CartView />, { path: '/cart' });
    const rows = await screen.findAllByTestId('cart-item');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: 'Beanie' }).getAttribute('href')).toBe('/product/beanie/');
    expect(rows[0]!.textContent).toContain('$20.00');
    expect(rows[0]!.textContent).toContain('$36.00');
    expect(rows[1]!.textContent).toContain('Logo: Yes, Color: Blue');
    expect(screen.getByTestId('cart-subtotal').textContent).toBe('$81.00');
    expect(screen.getByTestId('cart-total').textContent).toBe('$81.00');
    expect(screen.getByText('Shipping and taxes are calculated at checkout.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Continue shopping' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Proceed to checkout' }).getAttribute('href')).toBe('/checkout');
  });

  it("lists the products the cart suggests under its lines, through the page's cards", async () => {
    stubShop(() => withNonce({ ...cartWithItems, cross_sells: [{ id: 41, name: 'Mug' }] }));
    renderWithApp(<CartView renderCrossSells={(products) => <p data-testid="suggested">{products.map((p) => p.name).join(', ')}</p>} />, { path: '/cart' });
    const section = await screen.findByRole('region', { name: 'You may be interested in…' });
    expect(within(section).getByTestId('suggested').textContent).toBe('Mug');
  });

  it('leaves the suggestions out when the cart has none', async () => {
    stubShop(() => withNonce({ ...cartWithItems, cross_sells: [] }));
    renderWithApp(<CartView renderCrossSells={() => <p>never</p>} />, { path: '/cart' });
    await screen.findAllByTestId('cart-item');
    expect(screen.queryByRole('region', { name: 'You may be interested in…' })).toBeNull();
  });

  it('sends a changed quantity once the shopper pauses, not on every keystroke', async () => {
    const { sent } = stubShop(({ method, body }) => {
      if (method !== 'POST') return withNonce(cartWithItems);
      const { quantity } = JSON.parse(body) as { quantity: number };
      return withNonce({
        ...cartWithItems,
        items: cartWithItems.items.map((item, index) => (index === 0 ? { ...item, quantity } : item)),
      });
    });
    renderWithApp(<CartView />, { path: '/cart' });
    const input = await screen.findByRole('spinbutton', { name: 'Beanie quantity' });

    setValue(input, '3');
    setValue(input, '4');
    await new Promise((resolve) => setTimeout(resolve, QUANTITY_UPDATE_DELAY_MS / 2));
    expect(sent.filter((request) => request.method === 'POST')).toHaveLength(0);

    await waitFor(() => expect(sent.filter((request) => request.method === 'POST')).toHaveLength(1));
    const update = sent.find((request) => request.method === 'POST')!;
    expect(update.url).toBe('/wp-json/wc/store/v1/cart/update-item');
    expect(JSON.parse(update.body)).toEqual({ key: '9bf31c7ff062936a96d3c8bd1f8f2ff3', quantity: 4 });
    expect(update.headers.get('Nonce')).toBe('n1');
  });

  it("shows the server's message in a notice and puts the quantity back when an update is refused", async () => {
    stubShop(({ method }) =>
      method === 'POST'
        ? withNonce(
            {
              code: 'woocommerce_rest_cart_invalid_quantity',
              message: 'The maximum quantity for &quot;Beanie&quot; is 5.',
              data: { status: 400 },
            },
            400,
          )
        : withNonce(cartWithItems),
    );
    renderWithApp(<CartView />, { path: '/cart' });
    const input = (await screen.findByRole('spinbutton', { name: 'Beanie quantity' })) as HTMLInputElement;
    setValue(input, '9');

    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toBe('The maximum quantity for "Beanie" is 5.');
    expect(input.value).toBe('2');
  });

  it('blocks a line under an overlay while it is being removed', async () => {
    const answer = deferred<Response>();
    stubShop(({ method }) => (method === 'POST' ? answer.promise : withNonce(cartWithItems)));
    renderWithApp(<CartView />, { path: '/cart' });
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Hoodie from cart' }));

    const row = screen.getAllByTestId('cart-item')[1]!;
    await waitFor(() => expect(row.getAttribute('aria-busy')).toBe('true'));
    expect(within(row).getByTestId('blocking-overlay')).toBeTruthy();

    answer.resolve(withNonce({ ...cartWithItems, items: cartWithItems.items.slice(0, 1), items_count: 2 }));
    await waitFor(() => expect(screen.getAllByTestId('cart-item')).toHaveLength(1));
    expect(screen.getByRole('status').textContent).toContain('“Hoodie” removed.');
  });

  it('removes the line named by ?remove_item= and tidies the address', async () => {
    const { sent } = stubShop(({ method }) =>
      method === 'POST'
        ? withNonce({ ...cartWithItems, items: cartWithItems.items.slice(1), items_count: 1 })
        : withNonce(cartWithItems),
    );
    const { router } = renderWithApp(<CartView />, { path: '/cart?remove_item=9bf31c7ff062936a96d3c8bd1f8f2ff3' });
    await waitFor(() => expect(sent.some((request) => request.url.endsWith('/cart/remove-item'))).toBe(true));
    expect(JSON.parse(sent.find((request) => request.method === 'POST')!.body)).toEqual({
      key: '9bf31c7ff062936a96d3c8bd1f8f2ff3',
    });
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('shows the cart the server sends with a refusal, such as a line that no longer exists', async () => {
    stubShop(({ method }) => (method === 'POST' ? withNonce(staleKey, 409) : withNonce(cartWithItems)));
    renderWithApp(<CartView />, { path: '/cart' });
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Hoodie from cart' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Cart item no longer exists or is invalid.');
    // The recorded answer's cart holds three beanies and a coupon.
    await waitFor(() => expect(screen.getAllByTestId('cart-item')).toHaveLength(1));
    expect(screen.getByTestId('cart-total').textContent).toBe('$48.60');
    expect(screen.getByText('Coupon: ten')).toBeTruthy();
  });
});

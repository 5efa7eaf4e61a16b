import { fireEvent, screen } from '@testing-library/preact';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settings } from '@/config/settings';
import { jsonResponse, renderWithApp } from '@/test/render';
import type { ExpressCheckoutElementProps } from './express-checkout-props';
import { ExpressCheckoutSlot } from './express-checkout-slot';

// The element's chunk, recorded: whether it was fetched, and what it was given.
const loaded = vi.hoisted(() => ({ count: 0, props: [] as unknown[] }));
vi.mock('./express-checkout-element', () => {
  loaded.count += 1;
  return {
    default: (props: ExpressCheckoutElementProps) => {
      loaded.props.push(props);
      return <div data-testid="express-element">{props.params.cart_token ?? props.context}</div>;
    },
  };
});

interface Sent {
  url: string;
  credentials: RequestCredentials | undefined;
  headers: Headers;
}

function stubParams(answer: unknown) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      sent.push({ url: String(input), credentials: init.credentials, headers: new Headers(init.headers) });
      return jsonResponse(answer);
    }),
  );
  return sent;
}

const gateways = settings.checkout.gateways;
beforeEach(() => {
  loaded.count = 0;
  loaded.props = [];
});
afterEach(() => {
  settings.checkout.gateways = gateways;
  vi.unstubAllGlobals();
});

const offerCards = () => {
  settings.checkout.gateways = [{ id: 'stripe', title: 'Credit / Debit Card', description: '', order_button_text: null }];
};

const choice = { productId: 15, quantity: 1, disabled: false, variationChosen: false };

describe('the express checkout slot', () => {
  it('asks for nothing in a shop whose card gateway is not connected', async () => {
    const sent = stubParams({ enabled: true });
    renderWithApp(
      <div data-testid="slot">
        <ExpressCheckoutSlot context="cart" cartVersion="a" />
      </div>,
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(sent).toEqual([]);
    expect(screen.getByTestId('slot').innerHTML).toBe('');
    expect(loaded.count).toBe(0);
  });

  it('renders nothing at first, then asks for the params once idle, and loads no element when the shop does not offer it', async () => {
    offerCards();
    const sent = stubParams({ enabled: false, is_product_page: false });
    renderWithApp(
      <div data-testid="slot">
        <ExpressCheckoutSlot context="cart" cartVersion="a" />
      </div>,
    );
    expect(sent).toEqual([]);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.url).toBe('/wp-json/ferroshop/v1/payments/express-checkout-params?context=cart');
    // The cart page's button speaks for the shopper's own cart.
    expect(sent[0]!.credentials).toBe('same-origin');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByTestId('slot').innerHTML).toBe('');
    expect(loaded.count).toBe(0);
  });

  it('loads the element for a product page in a cart of its own, asked without cookies', async () => {
    offerCards();
    const sent = stubParams({ enabled: true, is_product_page: true, cart_token: 'TOKEN-1', product: { displayItems: [], total: { label: 'Shop', amount: 1800 } } });
    renderWithApp(<ExpressCheckoutSlot context="product" productId={15} choice={choice} />);
    await screen.findByTestId('express-element');
    expect(sent[0]!.url).toBe('/wp-json/ferroshop/v1/payments/express-checkout-params?context=product&product_id=15');
    expect(sent[0]!.credentials).toBe('omit');
    expect(loaded.count).toBe(1);
    const props = loaded.props.at(-1) as ExpressCheckoutElementProps;
    expect(props.session).toEqual({ ownCart: false, cartToken: 'TOKEN-1' });
    expect(props.choice).toEqual(choice);
  });

  it('keeps the button up while a changed cart’s params are asked for', async () => {
    offerCards();
    const sent = stubParams({ enabled: true, is_cart_page: true, cart: { shipping_required: true, order_data: { displayItems: [], total: { label: 'Shop', amount: 1800 } } } });
    function Cart() {
      const [version, setVersion] = useState('a');
      return (
        <>
          <button type="button" onClick={() => setVersion('b')}>
            Change the cart
          </button>
          <ExpressCheckoutSlot context="cart" cartVersion={version} />
        </>
      );
    }
    renderWithApp(<Cart />);
    await screen.findByTestId('express-element');
    fireEvent.click(screen.getByRole('button', { name: 'Change the cart' }));
    expect(screen.getByTestId('express-element')).toBeTruthy();
    await vi.waitFor(() => expect(sent).toHaveLength(2));
  });
});

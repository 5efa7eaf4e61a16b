import { act, fireEvent, screen } from '@testing-library/preact';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeStripe, type FakeStripe } from '@/test/fake-stripe';
import { jsonResponse, renderWithApp } from '@/test/render';
import { shopperSession, tokenSession } from '../api/express-session';
import type { ExpressParams } from '../api/get-express-params';
import ExpressCheckoutElement from './express-checkout-element';

const provider = vi.hoisted(() => ({ current: null as unknown }));
vi.mock('../../lib/load-stripe', () => ({ loadProvider: vi.fn(async () => provider.current) }));

const base: ExpressParams = {
  enabled: true,
  ajax_url: '/?wc-ajax=%%endpoint%%',
  stripe: { publishable_key: 'pk_test_1', locale: 'en', is_link_enabled: true },
  nonce: {
    shipping: 'n-shipping',
    update_shipping: 'n-update',
    normalize_address: 'n-normalize',
    wc_store_api: 'n-store',
    wc_store_api_express_checkout: 'n-express',
    get_cart_details: 'n-details',
    add_to_cart: 'n-add',
    clear_cart: 'n-clear',
    get_selected_product_data: 'n-selected',
  },
  i18n: {},
  checkout: { url: '/checkout/', currency_code: 'usd', country_code: 'US', needs_shipping: 'yes', needs_payer_phone: true },
  button: { type: 'default', theme: 'dark', height: '60', radius: '6' },
  total_label: 'Ferroshop',
  is_product_page: false,
  is_cart_page: true,
  is_checkout_page: false,
  product: false,
  cart: { shipping_required: true, order_data: { displayItems: [{ label: 'Subtotal', amount: 3600 }], total: { label: 'Ferroshop', amount: 3600 }, currency: 'usd', country_code: 'US' } },
};

const productParams: ExpressParams = {
  ...base,
  is_product_page: true,
  is_cart_page: false,
  cart: false,
  cart_token: 'TOKEN-1',
  product: { displayItems: [{ label: 'Beanie', amount: 1800 }], total: { label: 'Ferroshop', amount: 1800, pending: true }, currency: 'usd', country_code: 'US', requestShipping: true, needs_shipping: true },
};

let fake: FakeStripe;
beforeEach(() => {
  fake = fakeStripe();
  provider.current = fake.stripe;
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const wallets = { applePay: true, googlePay: false, link: false, paypal: false, amazonPay: false, klarna: false };

describe('the express checkout element', () => {
  it('makes a deferred payment group of the cart’s total and shows the button once a wallet can pay', async () => {
    renderWithApp(<ExpressCheckoutElement context="cart" params={base} session={shopperSession()} cartVersion="a" />);
    await vi.waitFor(() => expect(fake.element.mount).toHaveBeenCalledOnce());
    expect(fake.elements.options).toEqual({
      mode: 'payment',
      amount: 3600,
      currency: 'usd',
      paymentMethodCreation: 'manual',
      paymentMethodTypes: ['card', 'link'],
      appearance: { variables: { borderRadius: '6px', spacingUnit: '6px' } },
    });
    expect(fake.elements.create).toHaveBeenCalledWith('expressCheckout', {
      paymentMethods: { applePay: 'always', googlePay: 'always', link: 'auto', paypal: 'never', amazonPay: 'never', klarna: 'never' },
      layout: { overflow: 'never' },
      buttonTheme: { applePay: 'black', googlePay: 'black' },
      buttonType: { applePay: 'plain', googlePay: 'plain' },
      buttonHeight: 55,
      emailRequired: true,
      phoneNumberRequired: true,
    });
    // Hidden until the element says a wallet can pay here.
    const box = screen.getByTestId('express-checkout');
    expect(box.hidden).toBe(true);
    act(() => fake.element.emit('ready', { elementType: 'expressCheckout', availablePaymentMethods: wallets }));
    expect(box.hidden).toBe(false);
    expect(screen.getByText('— or —')).toBeTruthy();
  });

  it('stays hidden when no wallet can pay, or the element fails to load', async () => {
    renderWithApp(<ExpressCheckoutElement context="checkout" params={base} session={shopperSession()} />);
    await vi.waitFor(() => expect(fake.element.mount).toHaveBeenCalledOnce());
    act(() => fake.element.emit('ready', { elementType: 'expressCheckout', availablePaymentMethods: undefined }));
    expect(screen.getByTestId('express-checkout').hidden).toBe(true);
    act(() => fake.element.emit('loaderror', { elementType: 'expressCheckout', error: { type: 'api_error' } }));
    expect(screen.queryByTestId('express-checkout')).toBeNull();
  });

  it('heads the checkout’s button “Express checkout”, with the separator before the form', async () => {
    renderWithApp(<ExpressCheckoutElement context="checkout" params={base} session={shopperSession()} />);
    await vi.waitFor(() => expect(fake.element.mount).toHaveBeenCalledOnce());
    act(() => fake.element.emit('ready', { elementType: 'expressCheckout', availablePaymentMethods: wallets }));
    expect(screen.getByRole('region', { name: 'Express checkout' })).toBeTruthy();
    expect(screen.getByText('— or —')).toBeTruthy();
  });

  it('follows the cart: new params bring the new amount', async () => {
    const later: ExpressParams = { ...base, cart: { shipping_required: true, order_data: { displayItems: [{ label: 'Subtotal', amount: 5400 }], total: { label: 'Ferroshop', amount: 5400 }, currency: 'usd', country_code: 'US' } } };
    function Cart() {
      const [params, setParams] = useState(base);
      return (
        <>
          <button type="button" onClick={() => setParams(later)}>
            Add one
          </button>
          <ExpressCheckoutElement context="cart" params={params} session={shopperSession()} />
        </>
      );
    }
    renderWithApp(<Cart />);
    await vi.waitFor(() => expect(fake.element.mount).toHaveBeenCalledOnce());
    fireEvent.click(screen.getByRole('button', { name: 'Add one' }));
    await vi.waitFor(() => expect(fake.elements.update).toHaveBeenCalledWith({ amount: 5400 }));
    expect(fake.element.mount).toHaveBeenCalledOnce();
  });

  it('prices the product page’s choice once it rests, and the sheet opens with that price', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const sent: URLSearchParams[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) => {
        sent.push(new URLSearchParams(String(init.body)));
        return jsonResponse({ displayItems: [{ label: 'Beanie (x3)', amount: 5400 }], total: { label: 'Ferroshop', amount: 5400, pending: true }, currency: 'usd', country_code: 'US', requestShipping: true, needs_shipping: true, shippingOptions: { id: 'pending', label: 'Pending', detail: '', amount: 0 } });
      }),
    );
    function Product() {
      const [quantity, setQuantity] = useState(1);
      return (
        <>
          <button type="button" onClick={() => setQuantity(3)}>
            Three
          </button>
          <ExpressCheckoutElement context="product" productId={15} params={productParams} session={tokenSession('TOKEN-1')} choice={{ productId: 15, quantity, disabled: false, variationChosen: false }} />
        </>
      );
    }
    renderWithApp(<Product />);
    await vi.waitFor(() => expect(fake.element.mount).toHaveBeenCalledOnce());
    // One of it, as the params priced it: nothing to ask.
    await vi.advanceTimersByTimeAsync(300);
    expect(sent).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Three' }));
    await vi.advanceTimersByTimeAsync(300);
    await vi.waitFor(() => expect(fake.elements.update).toHaveBeenCalledWith({ amount: 5400 }));
    expect(Object.fromEntries(sent[0]!)).toEqual({ security: 'n-selected', product_id: '15', qty: '3' });

    const click = { expressPaymentType: 'google_pay', resolve: vi.fn(), reject: vi.fn() };
    act(() => fake.element.emit('click', click));
    expect(click.resolve).toHaveBeenCalledWith(expect.objectContaining({ lineItems: [{ name: 'Beanie (x3)', amount: 5400 }], shippingRates: [{ id: 'pending', amount: 0, displayName: 'Pending' }] }));
  });

  it('goes to the thank-you page once the wallet’s payment is through', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input);
        if (url.includes('normalize_address')) return jsonResponse({});
        if (url.endsWith('/checkout')) return jsonResponse({ order_id: 41, order_key: 'wc_order_abc', status: 'processing', payment_result: { payment_status: 'success', redirect_url: 'http://localhost:3000/checkout/order-received/41/?key=wc_order_abc' } });
        return jsonResponse({ result: 'success', displayItems: [], total: { label: 'Ferroshop', amount: 1800 } });
      }),
    );
    const { router } = renderWithApp(<ExpressCheckoutElement context="product" productId={15} params={productParams} session={tokenSession('TOKEN-1')} choice={{ productId: 15, quantity: 1, disabled: false, variationChosen: false }} />, { path: '/product/beanie' });
    await vi.waitFor(() => expect(fake.element.mount).toHaveBeenCalledOnce());
    act(() => fake.element.emit('ready', { elementType: 'expressCheckout', availablePaymentMethods: wallets }));
    act(() => fake.element.emit('click', { expressPaymentType: 'apple_pay', resolve: vi.fn(), reject: vi.fn() }));
    await act(async () => {
      fake.element.emit('confirm', { expressPaymentType: 'apple_pay', paymentFailed: vi.fn(), billingDetails: { name: 'Ada Lovelace', email: 'ada@example.test', address: { line1: '1 Main St', line2: null, city: 'San Francisco', state: 'CA', postal_code: '94110', country: 'US' } } });
    });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/checkout/order-received/41/'));
    expect(router.state.location.search).toBe('?key=wc_order_abc');
  });

  it('shows what went wrong above the button', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ success: false, data: { error: { message: 'Sorry, &quot;Beanie&quot; is not available.' } } }, { status: 400 })));
    renderWithApp(<ExpressCheckoutElement context="product" productId={15} params={productParams} session={tokenSession('TOKEN-1')} choice={{ productId: 15, quantity: 1, disabled: false, variationChosen: false }} />);
    await vi.waitFor(() => expect(fake.element.mount).toHaveBeenCalledOnce());
    act(() => fake.element.emit('ready', { elementType: 'expressCheckout', availablePaymentMethods: wallets }));
    act(() => fake.element.emit('click', { expressPaymentType: 'apple_pay', resolve: vi.fn(), reject: vi.fn() }));
    const reject = vi.fn();
    await act(async () => {
      fake.element.emit('shippingaddresschange', { address: { city: 'San Francisco', state: 'CA', postal_code: '94110', country: 'US' }, resolve: vi.fn(), reject });
    });
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Sorry, "Beanie" is not available.'));
    expect(reject).toHaveBeenCalledOnce();
  });
});

// The checkout with a gateway that has a payment form (the card), through a stand-in
// PaymentBinding: the checkout knows the binding's contract, not the payments feature.
import { screen, waitFor } from '@testing-library/preact';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, settings } from '@/config/settings';
import { resetNonce } from '@/lib/api-client';
import { fireEvent, setValue } from '@/test/events';
import { stubShop, type SentRequest } from '@/test/fetch-stub';
import locale from '@/test/fixtures/address-locale.json';
import cartFixture from '@/test/fixtures/store-cart-get-with-items.json';
import { jsonResponse, renderWithApp } from '@/test/render';
import type { CartBinding } from '@/types/cart-binding';
import type { PaymentBinding, PaymentBoxProps, PaymentSubmission, PreparedPayment } from '@/types/payment-binding';
import type { Cart } from '@/types/store-api';
import { CheckoutView } from './checkout-view';

const cart = { ...cartFixture, needs_shipping: false, shipping_rates: [], payment_methods: ['stripe', 'stripe_ideal', 'bacs'] } as unknown as Cart;

const PLACED = { order_id: 60, status: 'pending', order_key: 'wc_order_x', payment_result: { payment_status: 'success', payment_details: [], redirect_url: `${window.location.origin}/checkout/order-received/60/?key=wc_order_x` } };

function cartBinding(): CartBinding {
  return { cart, isPending: false, isFresh: true, error: null, setCart: vi.fn(), refresh: vi.fn(async () => {}) };
}

function stub(checkout: (request: SentRequest) => Response = () => jsonResponse(PLACED)) {
  return stubShop((request) => {
    const url = new URL(request.url, 'http://shop.test');
    if (url.pathname.endsWith('/address-locale')) return jsonResponse(locale);
    if (url.pathname.endsWith('/checkout') && request.method === 'POST') return checkout(request);
    return jsonResponse(cart, { headers: { Nonce: 'n1' } });
  });
}

function FakeBox({ gatewayId, onSubmission, submission, selected }: PaymentBoxProps & { submission: PaymentSubmission }) {
  useEffect(() => {
    onSubmission(gatewayId, submission);
    return () => onSubmission(gatewayId, null);
  }, [gatewayId, onSubmission, submission]);
  return <p>{selected ? `Card form for ${gatewayId}` : ''}</p>;
}

function payments(overrides: Partial<PaymentSubmission> = {}) {
  const submission: PaymentSubmission = {
    prepare: vi.fn(async () => ({ ok: true as const, paymentData: [{ key: 'wc-stripe-payment-method', value: 'pm_1' }] })),
    complete: vi.fn(async (placed) => ({ ok: true as const, redirect: placed.payment_result.redirect_url })),
    refusal: vi.fn(() => null),
    save: vi.fn(),
    ...overrides,
  };
  const binding: PaymentBinding = {
    // A method offered in the UK only, standing for one with a country list.
    isAvailable: (id, country) => id !== 'stripe_ideal' || country === 'GB',
    hasBox: (id) => id.startsWith('stripe'),
    renderBox: (props) => (props.gatewayId.startsWith('stripe') ? <FakeBox {...props} submission={submission} /> : null),
  };
  return { binding, submission };
}

function fillValidForm() {
  const values: Record<string, string> = {
    billing_first_name: 'Ada', billing_last_name: 'Lovelace', billing_address_1: '1 Main St', billing_city: 'San Francisco',
    billing_postcode: '94110', billing_phone: '555 010 0100', billing_email: 'ada@example.test',
  };
  setValue(field('billing_country'), 'US');
  setValue(field('billing_state'), 'CA');
  for (const [id, value] of Object.entries(values)) setValue(field(id), value);
}

const field = (id: string) => document.getElementById(id) as HTMLInputElement | HTMLSelectElement;
const checkoutsSent = (sent: SentRequest[]) => sent.filter((request) => request.url.endsWith('/checkout') && request.method === 'POST');

describe('paying by card at checkout', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    Object.assign(settings.checkout, {
      terms: null,
      gateways: [
        { id: 'stripe', title: 'Credit / Debit Card', description: '', order_button_text: null },
        { id: 'stripe_ideal', title: 'iDEAL', description: '', order_button_text: null },
        { id: 'bacs', title: 'Direct bank transfer', description: 'Pay into our bank account.', order_button_text: null },
      ],
    });
  });
  afterEach(() => {
    Object.assign(settings.checkout, DEFAULT_SETTINGS.checkout);
  });

  it('draws the card form in its box and sends what it prepared with the order', async () => {
    const { sent } = stub();
    const { binding, submission } = payments();
    const { router } = renderWithApp(<CheckoutView binding={cartBinding()} loginForm={null} payments={binding} />, { path: '/checkout' });
    expect(await screen.findByText('Card form for stripe')).toBeTruthy();
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/order-received/60/'));
    const body = JSON.parse(checkoutsSent(sent)[0]!.body);
    expect(body.payment_method).toBe('stripe');
    expect(body.payment_data).toEqual([{ key: 'wc-stripe-payment-method', value: 'pm_1' }]);
    expect(submission.complete).toHaveBeenCalledWith(expect.objectContaining({ order_id: 60, order_key: 'wc_order_x' }));
  });

  it('shows a payment that could not be prepared, sends no order and raises checkout_error', async () => {
    const { sent } = stub();
    const { binding } = payments({ prepare: vi.fn(async () => ({ ok: false as const, message: 'Your card number is incomplete.' })) });
    const raised = vi.fn();
    document.addEventListener('checkout_error', raised);
    renderWithApp(<CheckoutView binding={cartBinding()} loginForm={null} payments={binding} />, { path: '/checkout' });
    await screen.findByText('Card form for stripe');
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    const group = await waitFor(() => {
      const found = document.querySelector('.woocommerce-NoticeGroup-checkout');
      expect(found?.textContent).toContain('Your card number is incomplete.');
      return found!;
    });
    expect(group).toBeTruthy();
    expect(raised).toHaveBeenCalledOnce();
    expect(checkoutsSent(sent)).toHaveLength(0);
    expect(screen.queryByTestId('blocking-overlay')).toBeNull();
    document.removeEventListener('checkout_error', raised);
  });

  it('says "Please wait..." on the form while the payment is made', async () => {
    let release!: (value: { ok: false; message: string }) => void;
    const { binding } = payments({ prepare: vi.fn(() => new Promise<PreparedPayment>((resolve) => (release = resolve))) });
    stub();
    renderWithApp(<CheckoutView binding={cartBinding()} loginForm={null} payments={binding} />, { path: '/checkout' });
    await screen.findByText('Card form for stripe');
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    expect(await screen.findByText('Please wait...')).toBeTruthy();
    expect(document.querySelector('form[name="checkout"]')!.className).toContain('processing');
    release({ ok: false, message: 'Declined.' });
    await waitFor(() => expect(screen.queryByText('Please wait...')).toBeNull());
  });

  it('moves a declined checkout to the order’s pay page with the message', async () => {
    const declined = { code: 'card_declined', message: 'Your card was declined.', data: { status: 400, order_id: 60, pay_url: '/checkout/order-pay/60/?pay_for_order=true&key=wc_order_x' } };
    stub(() => jsonResponse(declined, { status: 400 }));
    const { binding } = payments({ refusal: vi.fn(() => ({ message: 'The card was declined.', redirect: '/checkout/order-pay/60/?pay_for_order=true&key=wc_order_x' })) });
    const cartNow = cartBinding();
    const { router } = renderWithApp(<CheckoutView binding={cartNow} loginForm={null} payments={binding} />, { path: '/checkout' });
    await screen.findByText('Card form for stripe');
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/order-pay/60/'));
    expect(router.state.location.state).toEqual({ paymentNotice: 'The card was declined.' });
    expect(cartNow.refresh).toHaveBeenCalled();
  });

  it('moves to the order’s pay page when the confirmation fails after the order was placed', async () => {
    stub();
    const { binding } = payments({ complete: vi.fn(async () => ({ ok: false as const, message: 'Authentication failed.', redirect: '/checkout/order-pay/60?pay_for_order=true&key=wc_order_x' })) });
    const { router } = renderWithApp(<CheckoutView binding={cartBinding()} loginForm={null} payments={binding} />, { path: '/checkout' });
    await screen.findByText('Card form for stripe');
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/order-pay/60'));
    expect(router.state.location.state).toEqual({ paymentNotice: 'Authentication failed.' });
  });

  it('hides a method whose countries do not include the billing country, and drops it when chosen', async () => {
    stub();
    const { binding } = payments();
    renderWithApp(<CheckoutView binding={cartBinding()} loginForm={null} payments={binding} />, { path: '/checkout' });
    await screen.findByText('Card form for stripe');
    expect(screen.queryByLabelText('iDEAL')).toBeNull();
    setValue(field('billing_country'), 'GB');
    fireEvent.click(await screen.findByLabelText('iDEAL'));
    expect((screen.getByLabelText('iDEAL') as HTMLInputElement).checked).toBe(true);
    setValue(field('billing_country'), 'DE');
    await waitFor(() => expect(screen.queryByLabelText('iDEAL')).toBeNull());
    expect((screen.getByLabelText('Credit / Debit Card') as HTMLInputElement).checked).toBe(true);
  });

  it('leaves offline methods as they were', async () => {
    const { sent } = stub();
    const { binding, submission } = payments();
    const { router } = renderWithApp(<CheckoutView binding={cartBinding()} loginForm={null} payments={binding} />, { path: '/checkout' });
    await screen.findByText('Card form for stripe');
    fireEvent.click(screen.getByLabelText('Direct bank transfer'));
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/order-received/60/'));
    expect(submission.prepare).not.toHaveBeenCalled();
    const body = JSON.parse(checkoutsSent(sent)[0]!.body);
    expect(body).toMatchObject({ payment_method: 'bacs', payment_data: [] });
  });
});

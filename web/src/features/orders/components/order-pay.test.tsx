import { screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, settings } from '@/config/settings';
import { resetNonce } from '@/lib/api-client';
import { stubShop } from '@/test/fetch-stub';
import { jsonResponse, renderWithApp } from '@/test/render';
import type { Order } from '@/types/order';
import { OrderPay } from './order-pay';
import { fireEvent } from '@/test/events';
import { useEffect } from 'react';
import type { PaymentBinding, PaymentBoxProps, PaymentSubmission } from '@/types/payment-binding';

const cur = { currency_code: 'USD', currency_symbol: '$', currency_minor_unit: 2, currency_decimal_separator: '.', currency_thousand_separator: ',', currency_prefix: '$', currency_suffix: '' };
const address = { first_name: 'Ada', last_name: 'Lovelace', company: '', address_1: '1 Main St', address_2: '', city: 'San Francisco', state: 'CA', postcode: '94110', country: 'US', phone: '' };

function order(overrides: Partial<Order> = {}): Order {
  return {
    id: 7,
    number: '7',
    order_key: 'wc_order_k',
    status: 'pending',
    status_label: 'Pending payment',
    date_created: '2026-11-22T10:00:00',
    customer_id: 0,
    customer_note: '',
    billing_address: { ...address, email: 'ada@example.test' },
    shipping_address: address,
    payment_method: '',
    payment_method_title: '',
    needs_payment: true,
    pay_url: '',
    received_url: 'http://localhost:3000/checkout/order-received/7/?key=wc_order_k',
    items: [{ id: 1, product_id: 15, variation_id: 0, name: 'Beanie', sku: '', quantity: 2, variation: [], subtotal: '3600', subtotal_tax: '0', total: '3600', total_tax: '0' }],
    shipping_lines: [],
    coupon_lines: [],
    fee_lines: [],
    tax_lines: [],
    totals: { subtotal: '3600', discount: '0', shipping: '0', tax: '0', total: '3600', ...cur },
    payment_instructions: null,
    bank_accounts: [],
    ...overrides,
  };
}

describe('the order-pay page', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
    settings.checkout.gateways = [
      { id: 'bacs', title: 'Direct bank transfer', description: 'Pay into our account.', order_button_text: null },
      { id: 'cod', title: 'Cash on delivery', description: '', order_button_text: null },
    ];
  });
  afterEach(() => {
    settings.checkout.gateways = DEFAULT_SETTINGS.checkout.gateways;
  });

  it('pays a pending order with the chosen method and follows the payment result', async () => {
    const { sent } = stubShop((request) => {
      if (request.method === 'GET' && request.url.includes('/orders/7')) return jsonResponse(order());
      if (request.method === 'GET') return jsonResponse({}, { headers: { Nonce: 'n1' } });
      return jsonResponse({ order_id: 7, status: 'on-hold', payment_result: { payment_status: 'success', redirect_url: `${window.location.origin}/checkout/order-received/7/?key=wc_order_k` } });
    });
    const { router } = renderWithApp(<OrderPay orderId="7" orderKey="wc_order_k" />, { path: '/checkout/order-pay/7' });
    expect((await screen.findAllByText('Beanie')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByLabelText('Cash on delivery'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay for order' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/order-received/7/'));

    expect(sent[0]!.url).toBe('/wp-json/ferroshop/v1/orders/7?key=wc_order_k');
    const pay = sent.find((request) => request.method === 'POST')!;
    expect(pay.url).toBe('/wp-json/wc/store/v1/checkout/7?key=wc_order_k&billing_email=ada%40example.test');
    expect(pay.headers.get('Nonce')).toBe('n1');
    expect(JSON.parse(pay.body)).toEqual({ payment_method: 'cod', payment_data: [], billing_address: order().billing_address });
  });

  it("says why an order that needs no payment cannot be paid", async () => {
    stubShop(() => jsonResponse(order({ status: 'processing', status_label: 'Processing', needs_payment: false })));
    renderWithApp(<OrderPay orderId="7" orderKey="wc_order_k" />);
    expect(await screen.findByText('This order’s status is “Processing”—it cannot be paid for. Please contact us if you need assistance.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pay for order' })).toBeNull();
  });

  it("shows the shop's message for an unknown order or a wrong key", async () => {
    stubShop(() => jsonResponse({ code: 'ferroshop_order_not_found', message: 'Sorry, this order is invalid and cannot be viewed.', data: { status: 404 } }, { status: 404 }));
    renderWithApp(<OrderPay orderId="7" orderKey="nope" />);
    expect(await screen.findByText('Sorry, this order is invalid and cannot be viewed.')).toBeTruthy();
  });
});

function FakeBox({ gatewayId, onSubmission, submission }: PaymentBoxProps & { submission: PaymentSubmission }) {
  useEffect(() => {
    onSubmission(gatewayId, submission);
    return () => onSubmission(gatewayId, null);
  }, [gatewayId, onSubmission, submission]);
  return <p>Card form</p>;
}

function payments(overrides: Partial<PaymentSubmission> = {}) {
  const submission: PaymentSubmission = {
    prepare: vi.fn(async () => ({ ok: true as const, paymentData: [{ key: 'wc-stripe-payment-method', value: 'pm_1' }] })),
    complete: vi.fn(async (placed) => ({ ok: true as const, redirect: placed.payment_result.redirect_url })),
    refusal: vi.fn(() => null),
    save: vi.fn(async () => ({ ok: true as const, redirect: '/my-account/view-order/7' })),
    ...overrides,
  };
  const binding: PaymentBinding = { isAvailable: () => true, hasBox: (id) => id === 'stripe', renderBox: (props) => (props.gatewayId === 'stripe' ? <FakeBox {...props} submission={submission} /> : null) };
  return { binding, submission };
}

describe('the order-pay page with the card gateway', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    settings.checkout.gateways = [
      { id: 'stripe', title: 'Credit / Debit Card', description: '', order_button_text: null },
      { id: 'cod', title: 'Cash on delivery', description: '', order_button_text: null },
    ];
  });
  afterEach(() => {
    settings.checkout.gateways = DEFAULT_SETTINGS.checkout.gateways;
  });

  const paidAnswer = { order_id: 7, status: 'processing', payment_result: { payment_status: 'success', redirect_url: `${window.location.origin}/checkout/order-received/7/?key=wc_order_k` } };

  it('pays through the card form and follows where it leads', async () => {
    const { sent } = stubShop((request) => {
      if (request.method === 'GET' && request.url.includes('/orders/7')) return jsonResponse(order());
      if (request.method === 'GET') return jsonResponse({}, { headers: { Nonce: 'n1' } });
      return jsonResponse(paidAnswer);
    });
    const { binding, submission } = payments();
    const { router } = renderWithApp(<OrderPay orderId="7" orderKey="wc_order_k" payments={binding} />, { path: '/checkout/order-pay/7' });
    await screen.findByText('Card form');
    fireEvent.click(screen.getByRole('button', { name: 'Pay for order' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/order-received/7/'));
    const pay = sent.find((request) => request.method === 'POST')!;
    expect(JSON.parse(pay.body)).toMatchObject({ payment_method: 'stripe', payment_data: [{ key: 'wc-stripe-payment-method', value: 'pm_1' }] });
    expect(submission.complete).toHaveBeenCalledWith(expect.objectContaining({ order_id: 7, order_key: 'wc_order_k' }));
  });

  it('shows a failed confirmation on the page and lets the shopper try again', async () => {
    stubShop((request) => {
      if (request.method === 'GET' && request.url.includes('/orders/7')) return jsonResponse(order());
      if (request.method === 'GET') return jsonResponse({}, { headers: { Nonce: 'n1' } });
      return jsonResponse(paidAnswer);
    });
    const raised = vi.fn();
    document.addEventListener('checkout_error', raised);
    const { binding } = payments({ complete: vi.fn(async () => ({ ok: false as const, message: 'Authentication failed.', redirect: null })) });
    renderWithApp(<OrderPay orderId="7" orderKey="wc_order_k" payments={binding} />, { path: '/checkout/order-pay/7' });
    await screen.findByText('Card form');
    fireEvent.click(screen.getByRole('button', { name: 'Pay for order' }));
    expect(await screen.findByText('Authentication failed.')).toBeTruthy();
    expect(raised).toHaveBeenCalledOnce();
    await waitFor(() => expect((screen.getByRole('button', { name: 'Pay for order' }) as HTMLButtonElement).getAttribute('aria-busy')).toBe('false'));
    document.removeEventListener('checkout_error', raised);
  });

  it('shows the message a failed checkout payment came with', async () => {
    stubShop(() => jsonResponse(order()));
    const { binding } = payments();
    const { router } = renderWithApp(<OrderPay orderId="7" orderKey="wc_order_k" payments={binding} />, { path: '/checkout/order-pay/7' });
    await screen.findByText('Card form');
    await router.navigate('/checkout/order-pay/7?key=wc_order_k', { state: { paymentNotice: 'The card was declined.' } });
    expect(await screen.findByText('The card was declined.')).toBeTruthy();
  });

  it('changes the payment method of an order through the card form alone', async () => {
    const { sent } = stubShop(() => jsonResponse(order({ needs_payment: false, status: 'processing', status_label: 'Processing' })));
    const { binding, submission } = payments();
    const { router } = renderWithApp(<OrderPay orderId="7" orderKey="wc_order_k" payments={binding} changing />, { path: '/checkout/order-pay/7' });
    await screen.findByText('Card form');
    expect(screen.queryByLabelText('Cash on delivery')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Change payment method' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/my-account/view-order/7'));
    expect(submission.save).toHaveBeenCalledOnce();
    expect(submission.prepare).not.toHaveBeenCalled();
    expect(sent.filter((request) => request.method === 'POST')).toHaveLength(0);
  });
});

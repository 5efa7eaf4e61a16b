import { screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, settings } from '@/config/settings';
import { resetNonce } from '@/lib/api-client';
import { stubShop } from '@/test/fetch-stub';
import { jsonResponse, renderWithApp } from '@/test/render';
import type { Order } from '@/types/order';
import { OrderPay } from './order-pay';
import { fireEvent } from '@/test/events';

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

import { screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetNonce } from '@/lib/api-client';
import { stubShop } from '@/test/fetch-stub';
import { jsonResponse, renderWithApp } from '@/test/render';
import type { Order } from '@/types/order';
import { OrderReceived } from './order-received';

const cur = { currency_code: 'EUR', currency_symbol: '€', currency_minor_unit: 2, currency_decimal_separator: '.', currency_thousand_separator: ',', currency_prefix: '€', currency_suffix: '' };
const address = { first_name: 'Ada', last_name: 'Lovelace', company: '', address_1: '1 Dam', address_2: '', city: 'Amsterdam', state: '', postcode: '1011 AB', country: 'NL', phone: '' };

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
    payment_method: 'stripe_ideal',
    payment_method_title: 'iDEAL',
    needs_payment: true,
    pay_url: 'http://localhost:3000/checkout/order-pay/7/?pay_for_order=true&key=wc_order_k',
    received_url: 'http://localhost:3000/checkout/order-received/7/?key=wc_order_k',
    items: [{ id: 1, product_id: 15, variation_id: 0, name: 'Beanie', sku: '', quantity: 1, variation: [], subtotal: '1800', subtotal_tax: '0', total: '1800', total_tax: '0' }],
    shipping_lines: [],
    coupon_lines: [],
    fee_lines: [],
    tax_lines: [],
    totals: { subtotal: '1800', discount: '0', shipping: '0', tax: '0', total: '1800', ...cur },
    payment_instructions: null,
    bank_accounts: [],
    ...overrides,
  };
}

const DECLINED = 'Unfortunately your order cannot be processed as the originating bank/merchant has declined your transaction. Please attempt your purchase again.';

describe('the order-received page after the provider’s page', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
  });

  it('says the bank refused and offers to pay again, before the webhook lands', async () => {
    stubShop((request) => (request.url.includes('/orders/7') ? jsonResponse(order()) : undefined));
    renderWithApp(<OrderReceived orderId="7" orderKey="wc_order_k" redirectStatus="failed" />);
    expect(await screen.findByText(DECLINED)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Pay' }).getAttribute('href')).toBe('/checkout/order-pay/7/?pay_for_order=true&key=wc_order_k');
    expect(screen.queryByText('Thank you. Your order has been received.')).toBeNull();
  });

  it('reads a pending order again until the provider’s word moves it', async () => {
    let reads = 0;
    stubShop((request) => {
      if (!request.url.includes('/orders/7')) return undefined;
      reads += 1;
      return jsonResponse(reads < 2 ? order() : order({ status: 'processing', status_label: 'Processing', needs_payment: false }));
    });
    renderWithApp(<OrderReceived orderId="7" orderKey="wc_order_k" redirectStatus="succeeded" />);
    expect(await screen.findByText('Thank you. Your order has been received.')).toBeTruthy();
    await waitFor(() => expect(reads).toBe(2), { timeout: 4000 });
    // Moved on: read no more.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(reads).toBe(2);
  }, 10_000);

  it('thanks a shopper who paid without leaving the shop, reading the order once', async () => {
    let reads = 0;
    stubShop((request) => {
      if (!request.url.includes('/orders/7')) return undefined;
      reads += 1;
      return jsonResponse(order({ status: 'on-hold', status_label: 'On hold', needs_payment: false }));
    });
    renderWithApp(<OrderReceived orderId="7" orderKey="wc_order_k" />);
    expect(await screen.findByText('Thank you. Your order has been received.')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads).toBe(1);
  });
});

import { screen } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import locale from '@/test/fixtures/address-locale.json';
import { stubShop } from '@/test/fetch-stub';
import { jsonResponse, renderWithApp } from '@/test/render';
import type { Order } from '@/types/order';
import { OrderDetails } from './order-details';

const CURRENCY = {
  currency_code: 'USD',
  currency_symbol: '$',
  currency_minor_unit: 2,
  currency_decimal_separator: '.',
  currency_thousand_separator: ',',
  currency_prefix: '$',
  currency_suffix: '',
};

const address = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  company: '',
  address_1: '1 Main St',
  address_2: '',
  city: 'San Francisco',
  state: 'CA',
  postcode: '94110',
  country: 'US',
  phone: '555 010 0100',
};

function order(shippingLines: Order['shipping_lines'], shippingAddress = address): Order {
  return {
    id: 7,
    number: '7',
    order_key: 'wc_order_7',
    status: 'on-hold',
    status_label: 'On hold',
    date_created: '2026-11-24T04:00:00Z',
    customer_id: 0,
    customer_note: '',
    billing_address: { ...address, email: 'ada@example.test' },
    shipping_address: shippingAddress,
    payment_method: 'bacs',
    payment_method_title: 'Direct bank transfer',
    needs_payment: true,
    pay_url: '',
    received_url: '',
    items: [{ id: 1, product_id: 3, variation_id: 0, name: 'Candle', sku: '', quantity: 1, variation: [], subtotal: '1400', subtotal_tax: '0', total: '1400', total_tax: '0' }],
    shipping_lines: shippingLines,
    coupon_lines: [],
    fee_lines: [],
    tax_lines: [],
    totals: { ...CURRENCY, subtotal: '1400', discount: '0', shipping: '0', tax: '0', total: '1400' },
    payment_instructions: null,
    bank_accounts: [],
  };
}

const flatRate = { method_id: 'flat_rate', name: 'Flat rate', total: '500', total_tax: '0' };
const pickup = { method_id: 'local_pickup', name: 'Local pickup', total: '0', total_tax: '0' };

describe('the order details', () => {
  beforeEach(() => {
    vi.unstubAllGlobals();
    stubShop((request) => (request.url.includes('/address-locale') ? jsonResponse(locale) : undefined));
  });

  it('shows where a shipped order goes', async () => {
    renderWithApp(<OrderDetails order={order([flatRate])} />);
    expect((await screen.findByTestId('shipping-address')).textContent).toContain('1 Main St');
    expect(screen.getByRole('heading', { name: 'Shipping address' })).toBeTruthy();
  });

  it('shows no shipping address for an order collected in person', async () => {
    renderWithApp(<OrderDetails order={order([pickup])} />);
    expect((await screen.findByTestId('billing-address')).textContent).toContain('1 Main St');
    expect(screen.queryByTestId('shipping-address')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Shipping address' })).toBeNull();
  });

  it('shows no shipping address for an order with nothing shipped', async () => {
    renderWithApp(<OrderDetails order={order([])} />);
    await screen.findByTestId('billing-address');
    expect(screen.queryByTestId('shipping-address')).toBeNull();
  });

  it('shows no shipping address block when the order has no shipping address', async () => {
    const empty = { ...address, first_name: '', last_name: '', address_1: '', city: '', state: '', postcode: '', country: '', phone: '' };
    renderWithApp(<OrderDetails order={order([flatRate], empty)} />);
    await screen.findByTestId('billing-address');
    expect(screen.queryByTestId('shipping-address')).toBeNull();
  });
});

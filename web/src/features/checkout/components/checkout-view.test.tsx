import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, settings } from '@/config/settings';
import { resetNonce } from '@/lib/api-client';
import locale from '@/test/fixtures/address-locale.json';
import cartFixture from '@/test/fixtures/store-cart-get-with-items.json';
import { stubShop, type SentRequest } from '@/test/fetch-stub';
import { jsonResponse, renderWithApp } from '@/test/render';
import type { CartBinding } from '@/types/cart-binding';
import type { Cart } from '@/types/store-api';
import { CheckoutView } from './checkout-view';

const rate = (rateId: string, name: string, price: string, selected: boolean) => ({
  rate_id: rateId,
  name,
  description: '',
  delivery_time: '',
  price,
  taxes: '0',
  method_id: rateId.split(':')[0],
  instance_id: 1,
  selected,
  ...{ currency_code: 'USD', currency_symbol: '$', currency_minor_unit: 2, currency_decimal_separator: '.', currency_thousand_separator: ',', currency_prefix: '$', currency_suffix: '' },
});

const cart = {
  ...cartFixture,
  needs_shipping: true,
  shipping_rates: [
    { package_id: 0, name: 'Shipment 1', destination: {}, items: [], shipping_rates: [rate('flat_rate:1', 'Flat rate', '500', true), rate('local_pickup:3', 'Local pickup', '0', false)] },
  ],
  payment_methods: ['bacs', 'cod'],
} as unknown as Cart;

const MISSING_FIELDS = {
  result: 'failure',
  messages:
    '<ul class="woocommerce-error" role="alert">\n<li data-id="billing_first_name">\n<strong>Billing First name</strong> is a required field.</li>\n<li data-id="billing_postcode"><strong>Billing ZIP Code</strong> is not a valid postcode / ZIP.</li>\n<li data-id="terms">Please read and accept the terms and conditions to proceed with your order.</li>\n</ul>\n',
  refresh: false,
  reload: false,
};

function binding(overrides: Partial<CartBinding> = {}): CartBinding {
  return { cart, isPending: false, isFresh: true, error: null, setCart: vi.fn(), refresh: vi.fn(async () => {}), ...overrides };
}

function stub(checkout: (request: SentRequest) => Response = () => jsonResponse(MISSING_FIELDS)) {
  return stubShop((request) => {
    const url = new URL(request.url, 'http://shop.test');
    if (url.pathname.endsWith('/address-locale')) return jsonResponse(locale);
    if (url.pathname.endsWith('/cart') && request.method === 'GET') return jsonResponse(cart, { headers: { Nonce: 'n1' } });
    if (url.pathname.includes('/cart/')) return jsonResponse(cart, { headers: { Nonce: 'n1' } });
    if (url.searchParams.get('wc-ajax') === 'checkout') return checkout(request);
    if (url.searchParams.get('wc-ajax') === 'apply_coupon') {
      return new Response('<ul class="woocommerce-error" role="alert">\n<li>Coupon "nope" does not exist!</li>\n</ul>', { headers: { 'Content-Type': 'text/html' } });
    }
    return undefined;
  });
}

const field = (id: string) => document.getElementById(id) as HTMLInputElement | HTMLSelectElement;
const row = (id: string) => document.getElementById(`${id}_field`)!;

describe('the checkout page', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    Object.assign(settings.checkout, {
      nonces: { update_order_review: 'u', apply_coupon: 'a', remove_coupon: 'r', process_checkout: 'p' },
      terms: { text: 'Returns within 30 days.', page_url: '/terms' },
      gateways: [
        { id: 'bacs', title: 'Direct bank transfer', description: 'Pay into our bank account.', order_button_text: null },
        { id: 'cod', title: 'Cash on delivery', description: 'Pay with cash upon delivery.', order_button_text: 'Order now, pay later' },
      ],
    });
  });
  afterEach(() => {
    Object.assign(settings.checkout, DEFAULT_SETTINGS.checkout);
  });

  it('says the cart is empty and offers the way back to the shop', async () => {
    stub();
    renderWithApp(<CheckoutView binding={binding({ cart: { ...cart, items: [], items_count: 0 } })} loginForm={null} />, { path: '/checkout' });
    expect(await screen.findByText('Your cart is currently empty.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Return to shop' }).getAttribute('href')).toBe('/shop');
  });

  it('changes the state field, labels and required marks with the country', async () => {
    stub();
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} />, { path: '/checkout' });
    await screen.findByRole('heading', { name: 'Billing details' });

    expect(field('billing_state').tagName).toBe('SELECT');
    expect(row('billing_state').textContent).toContain('State');
    expect(row('billing_state').querySelector('abbr[title="required"]')).not.toBeNull();
    expect(row('billing_postcode').textContent).toContain('ZIP Code');

    fireEvent.change(field('billing_country'), { target: { value: 'GB' } });
    expect((field('billing_state') as HTMLInputElement).type).toBe('hidden');
    expect(row('billing_postcode').textContent).toContain('Postcode');

    fireEvent.change(field('billing_country'), { target: { value: 'DE' } });
    expect(document.getElementById('billing_state')).toBeNull();
    const ids = [...document.querySelectorAll('.woocommerce-billing-fields input, .woocommerce-billing-fields select')].map((element) => element.id);
    expect(ids.indexOf('billing_postcode')).toBeLessThan(ids.indexOf('billing_city'));

    fireEvent.change(field('billing_country'), { target: { value: 'XK' } });
    expect((field('billing_state') as HTMLInputElement).type).toBe('text');
    expect(row('billing_state').textContent).toContain('State / County');
    expect(row('billing_company').textContent).toContain('(optional)');
  });

  it('marks fields invalid on focusout and clears the mark when typing', async () => {
    stub();
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} />, { path: '/checkout' });
    const email = (await screen.findByLabelText(/Email address/)) as HTMLInputElement;
    fireEvent.change(email, { target: { value: 'ada@' } });
    fireEvent.blur(email);
    expect(row('billing_email').className).toContain('woocommerce-invalid-email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(email, { target: { value: 'ada@example.test' } });
    expect(row('billing_email').className).not.toContain('woocommerce-invalid');
    fireEvent.blur(email);
    expect(row('billing_email').className).toContain('woocommerce-validated');

    const phone = field('billing_phone');
    fireEvent.change(phone, { target: { value: 'call me' } });
    fireEvent.blur(phone);
    expect(row('billing_phone').className).toContain('woocommerce-invalid-phone');

    fireEvent.blur(field('billing_first_name'));
    expect(row('billing_first_name').className).toContain('woocommerce-invalid-required-field');
    expect(row('billing_first_name').textContent).toContain('Billing First name is a required field.');
  });

  it('opens only the chosen payment method and names the button after it', async () => {
    stub();
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} />, { path: '/checkout' });
    const button = await screen.findByRole('button', { name: 'Place order' });
    const boxOf = (id: string) => document.querySelector(`.payment_box.payment_method_${id}`)!;
    expect(boxOf('bacs').getAttribute('data-open')).toBe('true');
    expect(boxOf('cod').getAttribute('data-open')).toBe('false');
    fireEvent.click(screen.getByLabelText('Cash on delivery'));
    expect(boxOf('bacs').getAttribute('data-open')).toBe('false');
    expect(boxOf('cod').getAttribute('data-open')).toBe('true');
    expect(button.textContent).toBe('Order now, pay later');
  });

  it('shows a failed order as a notice group linking to the fields, with inline messages', async () => {
    const { sent } = stub();
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} />, { path: '/checkout' });
    fireEvent.click(await screen.findByRole('button', { name: 'Place order' }));

    const group = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.woocommerce-NoticeGroup-checkout');
      expect(found).not.toBeNull();
      return found!;
    });
    const links = within(group).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Billing First name is a required field.', '#billing_first_name'],
      ['Billing ZIP Code is not a valid postcode / ZIP.', '#billing_postcode'],
      ['Please read and accept the terms and conditions to proceed with your order.', '#terms'],
    ]);
    expect(row('billing_postcode').className).toContain('woocommerce-invalid');
    expect(row('billing_postcode').textContent).toContain('Billing ZIP Code is not a valid postcode / ZIP.');
    expect(row('terms').className).toContain('woocommerce-invalid-required-field');
    expect(document.activeElement?.id).toBe('billing_first_name');

    const body = new URLSearchParams(sent.find((request) => request.url.includes('wc-ajax=checkout'))!.body);
    expect(body.get('billing_country')).toBe('US');
    expect(body.get('shipping_method[0]')).toBe('flat_rate:1');
    expect(body.get('payment_method')).toBe('bacs');
    expect(body.get('terms-field')).toBe('1');
    expect(body.has('terms')).toBe(false);
    expect(body.get('woocommerce-process-checkout-nonce')).toBe('p');
    expect(body.has('ship_to_different_address')).toBe(false);
  });

  it('shows the configured error for an answer it cannot read, and sends one order at a time', async () => {
    let release!: () => void;
    const { sent } = stub(
      () =>
        new Promise<Response>((resolve) => {
          release = () => resolve(new Response('<b>Fatal error</b>', { status: 500 }));
        }) as unknown as Response,
    );
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} />, { path: '/checkout' });
    const button = await screen.findByRole('button', { name: 'Place order' });
    fireEvent.click(button);
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByTestId('blocking-overlay')).toBeTruthy());
    await act(async () => release());
    expect(await screen.findByText('Error processing checkout. Please try again.')).toBeTruthy();
    expect(sent.filter((request) => request.url.includes('wc-ajax=checkout'))).toHaveLength(1);
  });

  it('goes to the order page after a successful order and refreshes the cart', async () => {
    stub(() => jsonResponse({ result: 'success', redirect: `${window.location.origin}/checkout/order-received/60/?key=wc_order_x`, order_id: 60 }));
    const cartBinding = binding();
    const { router } = renderWithApp(<CheckoutView binding={cartBinding} loginForm={null} />, { path: '/checkout' });
    fireEvent.click(await screen.findByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/order-received/60/'));
    expect(router.state.location.search).toBe('?key=wc_order_x');
    expect(cartBinding.refresh).toHaveBeenCalled();
  });

  it('shows a refused coupon under the input and marks it invalid', async () => {
    stub();
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} />, { path: '/checkout' });
    fireEvent.click(await screen.findByRole('link', { name: 'Click here to enter your code' }));
    const input = screen.getByPlaceholderText('Coupon code');
    fireEvent.change(input, { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply coupon' }));
    const alert = await screen.findByText('Coupon "nope" does not exist!');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it('asks for the account password only when creating an account', async () => {
    stub();
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} />, { path: '/checkout' });
    const box = await screen.findByLabelText('Create an account?');
    const password = document.querySelector('.create-account[data-open]')!;
    expect(password.getAttribute('data-open')).toBe('false');
    fireEvent.click(box);
    expect(password.getAttribute('data-open')).toBe('true');
    expect(screen.getByLabelText(/Create account password/)).toBeTruthy();
  });
});

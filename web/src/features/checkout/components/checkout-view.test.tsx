import { act, screen, waitFor, within } from '@testing-library/preact';
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
import { fireEvent, leave, setValue } from '@/test/events';

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

const POSTCODE_REFUSED = {
  code: 'rest_invalid_param',
  message: 'Invalid parameter(s): billing_address',
  data: {
    status: 400,
    params: { billing_address: 'The provided postcode / ZIP is not valid', billing_postcode: 'The provided postcode / ZIP is not valid' },
    details: { billing_postcode: { code: 'invalid_postcode', message: 'The provided postcode / ZIP is not valid', data: null } },
  },
};

const refused = (body: object) => jsonResponse(body, { status: 400, headers: { Nonce: 'n1' } });

function binding(overrides: Partial<CartBinding> = {}): CartBinding {
  return { cart, isPending: false, isFresh: true, error: null, setCart: vi.fn(), refresh: vi.fn(async () => {}), ...overrides };
}

function stub(checkout: (request: SentRequest) => Response = () => refused(POSTCODE_REFUSED), updateCustomer?: (request: SentRequest) => Response | undefined) {
  return stubShop((request) => {
    const url = new URL(request.url, 'http://shop.test');
    if (url.pathname.endsWith('/address-locale')) return jsonResponse(locale);
    if (url.pathname.endsWith('/cart') && request.method === 'GET') return jsonResponse(cart, { headers: { Nonce: 'n1' } });
    if (url.pathname.endsWith('/cart/apply-coupon')) return refused({ code: 'woocommerce_rest_cart_coupon_error', message: 'Coupon "nope" does not exist!', data: { status: 400 } });
    if (url.pathname.endsWith('/cart/update-customer') && updateCustomer) {
      const answer = updateCustomer(request);
      if (answer) return answer;
    }
    if (url.pathname.includes('/cart/')) return jsonResponse(cart, { headers: { Nonce: 'n1' } });
    if (url.pathname.endsWith('/checkout') && request.method === 'POST') return checkout(request);
    return undefined;
  });
}

const PLACED = {
  order_id: 60,
  status: 'on-hold',
  order_key: 'wc_order_x',
  payment_result: { payment_status: 'success', payment_details: [], redirect_url: `${window.location.origin}/checkout/order-received/60/?key=wc_order_x` },
};

/** Fills the billing address so the browser's own checks pass, and ticks the terms. */
function fillValidForm() {
  const values: Record<string, string> = {
    billing_first_name: 'Ada', billing_last_name: 'Lovelace', billing_address_1: '1 Main St', billing_city: 'San Francisco',
    billing_postcode: '94110', billing_phone: '555 010 0100', billing_email: 'ada@example.test',
  };
  setValue(field('billing_country'), 'US');
  setValue(field('billing_state'), 'CA');
  for (const [id, value] of Object.entries(values)) setValue(field(id), value);
  const terms = field('terms') as HTMLInputElement;
  if (!terms.checked) fireEvent.click(terms);
}

const checkoutsSent = (sent: SentRequest[]) => sent.filter((request) => request.url.endsWith('/checkout') && request.method === 'POST');

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

  it('shows, under its title, what the card gateway says of a payment that came back, the cart empty or not', async () => {
    stub();
    const status = <p role="alert">The voucher could not be shown.</p>;
    const empty = renderWithApp(<CheckoutView binding={binding({ cart: { ...cart, items: [], items_count: 0 } })} loginForm={null} paymentStatus={status} />, { path: '/checkout' });
    expect(await screen.findByText('Your cart is currently empty.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('The voucher could not be shown.');
    expect(screen.getByRole('heading', { name: 'Checkout' }).nextElementSibling).toBe(screen.getByRole('alert'));
    empty.unmount();
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} paymentStatus={status} />, { path: '/checkout' });
    await screen.findByRole('heading', { name: 'Billing details' });
    expect(screen.getByRole('heading', { name: 'Checkout' }).nextElementSibling?.textContent).toBe('The voucher could not be shown.');
  });

  it('changes the state field, labels and required marks with the country', async () => {
    stub();
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} />, { path: '/checkout' });
    await screen.findByRole('heading', { name: 'Billing details' });

    expect(field('billing_state').tagName).toBe('SELECT');
    expect(row('billing_state').textContent).toContain('State');
    expect(row('billing_state').querySelector('abbr[title="required"]')).not.toBeNull();
    expect(row('billing_postcode').textContent).toContain('ZIP Code');

    setValue(field('billing_country'), 'GB');
    expect((field('billing_state') as HTMLInputElement).type).toBe('hidden');
    expect(row('billing_postcode').textContent).toContain('Postcode');

    setValue(field('billing_country'), 'DE');
    expect(document.getElementById('billing_state')).toBeNull();
    const ids = [...document.querySelectorAll('.woocommerce-billing-fields input, .woocommerce-billing-fields select')].map((element) => element.id);
    expect(ids.indexOf('billing_postcode')).toBeLessThan(ids.indexOf('billing_city'));

    setValue(field('billing_country'), 'XK');
    expect((field('billing_state') as HTMLInputElement).type).toBe('text');
    expect(row('billing_state').textContent).toContain('State / County');
    expect(row('billing_company').textContent).toContain('(optional)');
  });

  it('marks fields invalid on focusout and clears the mark when typing', async () => {
    stub();
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} />, { path: '/checkout' });
    const email = (await screen.findByLabelText(/Email address/)) as HTMLInputElement;
    setValue(email, 'ada@');
    leave(email);
    expect(row('billing_email').className).toContain('woocommerce-invalid-email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    setValue(email, 'ada@example.test');
    expect(row('billing_email').className).not.toContain('woocommerce-invalid');
    leave(email);
    expect(row('billing_email').className).toContain('woocommerce-validated');

    const phone = field('billing_phone');
    setValue(phone, 'call me');
    leave(phone);
    expect(row('billing_phone').className).toContain('woocommerce-invalid-phone');

    leave(field('billing_first_name'));
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

  it('refuses an incomplete form itself: a notice group linking to the fields, inline messages, the first one focused', async () => {
    const { sent } = stub();
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} />, { path: '/checkout' });
    fireEvent.click(await screen.findByRole('button', { name: 'Place order' }));

    const group = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.woocommerce-NoticeGroup-checkout');
      expect(found).not.toBeNull();
      return found!;
    });
    const links = within(group).getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
    expect(links[0]).toEqual(['Billing First name is a required field.', '#billing_first_name']);
    expect(links).toContainEqual(['Please read and accept the terms and conditions to proceed with your order.', '#terms']);
    expect(row('billing_first_name').className).toContain('woocommerce-invalid-required-field');
    expect(row('terms').className).toContain('woocommerce-invalid-required-field');
    expect(document.activeElement?.id).toBe('billing_first_name');
    expect(checkoutsSent(sent)).toHaveLength(0);
  });

  it("shows the server's verdict on a field as a linked notice and an inline message, and sends the checkout as the Store API takes it", async () => {
    const { sent } = stub();
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} />, { path: '/checkout' });
    await screen.findByRole('button', { name: 'Place order' });
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));

    const group = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.woocommerce-NoticeGroup-checkout');
      expect(found).not.toBeNull();
      return found!;
    });
    const links = within(group).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['The provided postcode / ZIP is not valid', '#billing_postcode'],
    ]);
    expect(row('billing_postcode').className).toContain('woocommerce-invalid');
    expect(row('billing_postcode').textContent).toContain('The provided postcode / ZIP is not valid');
    expect(document.activeElement?.id).toBe('billing_postcode');

    const [request] = checkoutsSent(sent);
    expect(request!.headers.get('Nonce')).toBe('n1');
    const body = JSON.parse(request!.body);
    expect(body.billing_address).toMatchObject({ country: 'US', state: 'CA', postcode: '94110', email: 'ada@example.test' });
    expect(body.shipping_address).toMatchObject({ country: 'US', city: 'San Francisco' });
    expect(body.payment_method).toBe('bacs');
    expect(body.create_account).toBe(false);
    expect(sent.some((request) => request.url.includes('wc-ajax'))).toBe(false);

    // Typing into the field clears its message, inline and in the group.
    setValue(field('billing_postcode'), '94111');
    expect(row('billing_postcode').className).not.toContain('woocommerce-invalid');
    expect(document.querySelector('.woocommerce-NoticeGroup-checkout')).toBeNull();
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
    fillValidForm();
    fireEvent.click(button);
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByTestId('blocking-overlay')).toBeTruthy());
    await waitFor(() => expect(checkoutsSent(sent)).toHaveLength(1));
    await act(async () => release());
    expect(await screen.findByText('Error processing checkout. Please try again.')).toBeTruthy();
    expect(checkoutsSent(sent)).toHaveLength(1);
  });

  it('goes to the order page after a successful order and refreshes the cart', async () => {
    stub(() => jsonResponse(PLACED));
    const cartBinding = binding();
    const { router } = renderWithApp(<CheckoutView binding={cartBinding} loginForm={null} />, { path: '/checkout' });
    await screen.findByRole('button', { name: 'Place order' });
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/order-received/60/'));
    expect(router.state.location.search).toBe('?key=wc_order_x');
    expect(cartBinding.refresh).toHaveBeenCalled();
  });

  it('offers the newsletter only when the app hands its sign-up in, and signs the billing e-mail and first name up once the order is placed', async () => {
    stub(() => jsonResponse(PLACED));
    const signUp = vi.fn();
    const { router } = renderWithApp(<CheckoutView binding={binding()} loginForm={null} newsletterSignUp={signUp} />, { path: '/checkout' });
    await screen.findByRole('button', { name: 'Place order' });
    fillValidForm();
    const box = screen.getByRole('checkbox', { name: 'Sign me up for the newsletter' }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/order-received/60/'));
    expect(signUp).toHaveBeenCalledTimes(1);
    expect(signUp).toHaveBeenCalledWith({ email: 'ada@example.test', name: 'Ada' });
  });

  it('signs no one up when the order is refused', async () => {
    const signUp = vi.fn();
    stub();
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} newsletterSignUp={signUp} />, { path: '/checkout' });
    await screen.findByRole('button', { name: 'Place order' });
    fillValidForm();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Sign me up for the newsletter' }));
    fireEvent.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(row('billing_postcode').className).toContain('woocommerce-invalid'));
    expect(signUp).not.toHaveBeenCalled();
  });

  it('has no newsletter box without the sign-up', async () => {
    stub();
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} />, { path: '/checkout' });
    await screen.findByRole('button', { name: 'Place order' });
    expect(screen.queryByRole('checkbox', { name: 'Sign me up for the newsletter' })).toBeNull();
  });

  it('marks a field the review refresh finds invalid and waits for a valid address instead of showing old totals', async () => {
    const gbWithZip = {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): billing_address',
      data: { status: 400, params: { billing_address: 'The provided postcode / ZIP is not valid', billing_postcode: 'The provided postcode / ZIP is not valid' } },
    };
    stub(undefined, (request) => (JSON.parse(request.body).billing_address.country === 'GB' ? refused(gbWithZip) : undefined));
    const cartBinding = binding();
    renderWithApp(<CheckoutView binding={cartBinding} loginForm={null} />, { path: '/checkout' });
    await screen.findByRole('button', { name: 'Place order' });
    fillValidForm();
    setValue(field('billing_country'), 'GB');
    await waitFor(() => expect(row('billing_postcode').className).toContain('woocommerce-invalid'));
    expect(row('billing_postcode').textContent).toContain('The provided postcode / ZIP is not valid');
    expect(screen.getByText('Enter a valid address to see shipping and taxes.')).toBeTruthy();
    expect(screen.queryByTestId('review-total')).toBeNull();
    expect(document.body.textContent).not.toContain('Invalid parameter(s)');

    // A postcode that fits the country brings the totals back.
    setValue(field('billing_country'), 'US');
    await waitFor(() => expect(screen.getByTestId('review-total')).toBeTruthy());
    expect(screen.queryByText('Enter a valid address to see shipping and taxes.')).toBeNull();
  });

  it('shows a refused coupon under the input and marks it invalid', async () => {
    stub();
    renderWithApp(<CheckoutView binding={binding()} loginForm={null} />, { path: '/checkout' });
    fireEvent.click(await screen.findByRole('link', { name: 'Click here to enter your code' }));
    const input = screen.getByPlaceholderText('Coupon code');
    setValue(input, 'nope');
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

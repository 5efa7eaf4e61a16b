import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetNonce } from '@/lib/api-client';
import { fakeStripe, type FakeStripe } from '@/test/fake-stripe';
import { jsonResponse } from '@/test/render';
import type { PaymentOutcome } from '@/types/payment-binding';
import { shopperSession, tokenSession } from '../api/express-session';
import type { ExpressHttp, PlacedExpressOrder } from '../api/express-calls';
import type { ExpressParams, ExpressProductData } from '../api/get-express-params';
import type { CartLocation } from '../api/restore-cart';
import { expressFlow, SELECT_OPTIONS_MESSAGE, UNAVAILABLE_MESSAGE, type ExpressFlowDeps, type ProductChoice } from './express-flow';

// ---- A shop that answers the flow's calls, recording each with how it was sent ----------

interface Sent {
  method: string;
  url: string;
  body: string;
  headers: Headers;
  credentials: RequestCredentials | undefined;
}

type Answer = Response | ((request: Sent) => Response);

function stubShop(routes: Record<string, Answer>) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const request: Sent = { method: init.method ?? 'GET', url: String(input), body: init.body ? String(init.body) : '', headers: new Headers(init.headers), credentials: init.credentials };
      sent.push(request);
      const name = new URL(request.url, 'http://shop.test').searchParams.get('wc-ajax') ?? new URL(request.url, 'http://shop.test').pathname;
      const answer = routes[name];
      if (!answer) throw new Error(`Unexpected request: ${request.method} ${request.url}`);
      return typeof answer === 'function' ? answer(request) : answer.clone();
    }),
  );
  return sent;
}

const form = (request: Sent) => new URLSearchParams(request.body);
const json = (request: Sent) => JSON.parse(request.body) as Record<string, unknown>;
const callNamed = (sent: Sent[], name: string) => sent.find((request) => request.url.includes(`wc-ajax=${name}`) || request.url.endsWith(name));

const params: ExpressParams = {
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
  checkout: { url: '/checkout/', currency_code: 'usd', country_code: 'US', needs_shipping: 'yes', needs_payer_phone: false },
  button: { type: 'default', theme: 'dark', height: '48', radius: '4' },
  total_label: 'Ferroshop',
  is_product_page: true,
  is_cart_page: false,
  is_checkout_page: false,
  product: {
    displayItems: [
      { label: 'Beanie', amount: 1800 },
      { label: 'Shipping', amount: 0, pending: true },
    ],
    total: { label: 'Ferroshop', amount: 1800, pending: true },
    currency: 'usd',
    country_code: 'US',
    requestShipping: true,
    needs_shipping: true,
    shippingOptions: { id: 'pending', label: 'Pending', detail: '', amount: 0 },
  },
  cart: false,
  cart_token: 'TOKEN-1',
};

const product = params.product as ExpressProductData;

const sheet = (total: number, shipping: number) => ({
  displayItems: [
    { label: 'Beanie (x2)', amount: 3600 },
    { label: 'Tax', amount: 306 },
    { key: 'total_shipping', label: 'Shipping', amount: shipping },
    { key: 'total_discount', label: 'Discount', amount: 100 },
  ],
  total: { label: 'Ferroshop', amount: total, pending: false },
});

const RECEIVED = '/checkout/order-received/41/?key=wc_order_abc';
const placed = (redirect = RECEIVED): PlacedExpressOrder => ({ order_id: 41, order_key: 'wc_order_abc', status: 'processing', payment_result: { payment_status: 'success', redirect_url: redirect } });

/** The shop's answers for a whole purchase, each overridable. */
function purchaseRoutes(overrides: Record<string, Answer> = {}): Record<string, Answer> {
  return {
    wc_stripe_add_to_cart: jsonResponse({ result: 'success', ...sheet(3806, 0) }),
    wc_stripe_get_shipping_options: jsonResponse({
      result: 'success',
      shipping_options: [
        { id: 'flat_rate:1', label: 'Flat rate', displayName: 'Flat rate', detail: '', amount: 500 },
        { id: 'local_pickup:3', label: 'Local pickup', displayName: 'Local pickup', detail: '', amount: 0 },
      ],
      ...sheet(4306, 500),
    }),
    wc_stripe_update_shipping_method: jsonResponse({ result: 'success', ...sheet(3806, 0) }),
    wc_stripe_normalize_address: (request) => {
      const fields = form(request);
      return jsonResponse({
        billing_address: { first_name: 'Ada', last_name: 'Lovelace', state: 'CA', phone: '5550100100', email: fields.get('data[billing_address][email]') },
        shipping_address: { first_name: 'Ada', last_name: 'Lovelace', state: 'CA' },
      });
    },
    '/wp-json/wc/store/v1/checkout': jsonResponse(placed()),
    ...overrides,
  };
}

// ---- The element's events, as the provider emits them -----------------------------------

function clickEvent() {
  return { expressPaymentType: 'apple_pay' as const, resolve: vi.fn(), reject: vi.fn() };
}
function addressEvent() {
  return { address: { city: 'San Francisco', state: 'CA', postal_code: '94110', country: 'US' }, resolve: vi.fn(), reject: vi.fn() };
}
function rateEvent(id = 'local_pickup:3') {
  return { shippingRate: { id, amount: 0, displayName: 'Local pickup' }, resolve: vi.fn(), reject: vi.fn() };
}
function confirmEvent(withShipping = true) {
  return {
    expressPaymentType: 'apple_pay' as const,
    paymentFailed: vi.fn(),
    billingDetails: {
      name: 'Ada Lovelace',
      email: 'ada@example.test',
      phone: '(555) 010-0100',
      address: { line1: '1 Main St', line2: null, city: 'San Francisco', state: 'California', postal_code: '94110', country: 'US' },
    },
    ...(withShipping ? { shippingAddress: { name: 'Ada Lovelace', address: { line1: '2 Harbour Rd', line2: 'Flat 3', city: 'San Francisco', state: 'CA', postal_code: '94110', country: 'US' } } } : {}),
  };
}

// ---- The flow, wired to fakes ------------------------------------------------------------

let fake: FakeStripe;
beforeEach(() => {
  fake = fakeStripe();
  resetNonce();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const beanie = (overrides: Partial<ProductChoice> = {}): ProductChoice => ({ productId: 15, quantity: 2, disabled: false, variationChosen: false, ...overrides });

function flowFor(page: 'product' | 'cart' | 'checkout', overrides: Partial<ExpressFlowDeps> = {}) {
  const http: ExpressHttp = { params: { ...params, is_product_page: page === 'product' }, session: page === 'product' ? tokenSession('TOKEN-1') : shopperSession() };
  const ui = { busy: vi.fn(), notice: vi.fn(), leave: vi.fn(async (_redirect: string, _message?: string) => {}), cartChanged: vi.fn() };
  const complete = vi.fn(async (order: PlacedExpressOrder): Promise<PaymentOutcome> => ({ ok: true, redirect: order.payment_result.redirect_url }));
  const before: CartLocation = { shipping_address: { first_name: '', last_name: '', company: '', address_1: '', address_2: '', city: 'Boston', state: 'MA', postcode: '02110', country: 'US', phone: '' }, rates: [{ packageId: 0, rateId: 'flat_rate:1' }] };
  const cart = { read: vi.fn(async () => before), restore: vi.fn(async (_before: CartLocation) => ({})) };
  const deps: ExpressFlowDeps = {
    page,
    http,
    stripe: fake.stripe as unknown as Stripe,
    elements: fake.elements as unknown as StripeElements,
    quote: () => ({ sheet: product, requestShipping: true, pendingShipping: product.shippingOptions }),
    choice: page === 'product' ? () => ({ selection: beanie(), problem: null }) : undefined,
    cart: page === 'product' ? undefined : cart,
    complete,
    ui,
    ...overrides,
  };
  return { flow: expressFlow(deps), ui, complete, cart, before, http };
}

/** The sheet's events of a whole purchase, in the order the provider emits them. */
async function buy(flow: ReturnType<typeof expressFlow>, confirm = confirmEvent()) {
  const click = clickEvent();
  flow.click(click);
  const address = addressEvent();
  await flow.shippingAddressChange(address);
  const rate = rateEvent();
  await flow.shippingRateChange(rate);
  await flow.confirm(confirm);
  return { click, address, rate, confirm };
}

describe('a product page’s express purchase', () => {
  it('opens the sheet at once with the product’s lines and the pending shipping rate, and adds the product to the button’s own cart', async () => {
    const sent = stubShop(purchaseRoutes());
    const { flow } = flowFor('product');
    const click = clickEvent();
    flow.click(click);
    expect(click.resolve).toHaveBeenCalledWith({
      lineItems: [
        { name: 'Beanie', amount: 1800 },
        { name: 'Shipping', amount: 0 },
      ],
      emailRequired: true,
      phoneNumberRequired: false,
      shippingAddressRequired: true,
      shippingRates: [{ id: 'pending', amount: 0, displayName: 'Pending' }],
    });
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    const [add] = sent;
    expect(add!.url).toBe('/?wc-ajax=wc_stripe_add_to_cart');
    expect(Object.fromEntries(form(add!))).toEqual({ security: 'n-add', product_id: '15', qty: '2' });
    // The button's cart: its token, and never the shopper's cookies.
    expect(add!.headers.get('Cart-Token')).toBe('TOKEN-1');
    expect(add!.credentials).toBe('omit');
  });

  it('sends a variation’s options with it', async () => {
    const sent = stubShop(purchaseRoutes());
    const { flow } = flowFor('product', { choice: () => ({ selection: beanie({ productId: 22, quantity: 1, attributes: { attribute_pa_color: 'blue', attribute_pa_size: 'm' }, variationChosen: true }), problem: null }) });
    flow.click(clickEvent());
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(form(sent[0]!).toString()).toBe('security=n-add&product_id=22&qty=1&attributes%5Battribute_pa_color%5D=blue&attributes%5Battribute_pa_size%5D=m');
  });

  it('refuses to open while the product form is not ready to buy, saying why', () => {
    const sent = stubShop({});
    for (const [choice, message] of [
      [beanie({ disabled: true }), SELECT_OPTIONS_MESSAGE],
      [beanie({ disabled: true, variationChosen: true }), UNAVAILABLE_MESSAGE],
    ] as const) {
      const { flow, ui } = flowFor('product', { choice: () => ({ selection: choice, problem: null }) });
      const click = clickEvent();
      flow.click(click);
      expect(click.reject).toHaveBeenCalledOnce();
      expect(click.resolve).not.toHaveBeenCalled();
      expect(ui.notice).toHaveBeenCalledWith(message);
    }
    const { flow, ui } = flowFor('product', { choice: () => ({ selection: beanie(), problem: 'Sorry, "Beanie" is out of stock.' }) });
    const click = clickEvent();
    flow.click(click);
    expect(click.reject).toHaveBeenCalledOnce();
    expect(ui.notice).toHaveBeenCalledWith('Sorry, "Beanie" is out of stock.');
    expect(sent).toEqual([]);
  });

  it('quotes the rates for the wallet’s address once the product is in, and the chosen rate’s total', async () => {
    let releaseAdd: () => void = () => {};
    const added = new Promise<void>((resolve) => {
      releaseAdd = resolve;
    });
    const sent = stubShop(purchaseRoutes({ wc_stripe_add_to_cart: () => jsonResponse({ result: 'success', ...sheet(3806, 0) }) }));
    const slowFetch = vi.mocked(fetch);
    const fastFetch = slowFetch.getMockImplementation()!;
    slowFetch.mockImplementation(async (input, init) => {
      if (String(input).includes('wc_stripe_add_to_cart')) await added;
      return fastFetch(input, init);
    });
    const { flow } = flowFor('product');
    flow.click(clickEvent());
    const address = addressEvent();
    const quoting = flow.shippingAddressChange(address);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Nothing is asked for the address while the product is still on its way in.
    expect(slowFetch.mock.calls.map(([input]) => String(input))).toEqual(['/?wc-ajax=wc_stripe_add_to_cart']);
    releaseAdd();
    await quoting;

    const options = callNamed(sent, 'wc_stripe_get_shipping_options')!;
    expect(Object.fromEntries(form(options))).toEqual({
      security: 'n-shipping',
      is_product_page: '1',
      country: 'US',
      state: 'CA',
      postcode: '94110',
      city: 'San Francisco',
      address: '',
      address_2: '',
    });
    expect(options.headers.get('Cart-Token')).toBe('TOKEN-1');
    expect(fake.elements.update).toHaveBeenCalledWith({ amount: 4306 });
    expect(address.resolve).toHaveBeenCalledWith({
      shippingRates: [
        { id: 'flat_rate:1', amount: 500, displayName: 'Flat rate' },
        { id: 'local_pickup:3', amount: 0, displayName: 'Local pickup' },
      ],
      lineItems: [
        { name: 'Beanie (x2)', amount: 3600 },
        { name: 'Tax', amount: 306 },
        { name: 'Shipping', amount: 500 },
        { name: 'Discount', amount: -100 },
      ],
    });

    const rate = rateEvent();
    await flow.shippingRateChange(rate);
    const update = callNamed(sent, 'wc_stripe_update_shipping_method')!;
    expect(form(update).toString()).toBe('security=n-update&shipping_method%5B%5D=local_pickup%3A3&is_product_page=1');
    expect(fake.elements.update).toHaveBeenLastCalledWith({ amount: 3806 });
    expect(rate.resolve).toHaveBeenCalledWith({ lineItems: expect.arrayContaining([{ name: 'Shipping', amount: 0 }]) });
  });

  it('rejects an address the shop does not ship to, and a rate it refuses', async () => {
    stubShop(
      purchaseRoutes({
        wc_stripe_get_shipping_options: jsonResponse({ result: 'invalid_shipping_address', message: 'Unable to find shipping method for address.', ...sheet(3806, 0) }),
        wc_stripe_update_shipping_method: jsonResponse({ result: 'invalid_shipping_method', message: 'Invalid Rate ID.' }, { status: 400 }),
      }),
    );
    const { flow } = flowFor('product');
    flow.click(clickEvent());
    const address = addressEvent();
    await flow.shippingAddressChange(address);
    expect(address.reject).toHaveBeenCalledOnce();
    expect(address.resolve).not.toHaveBeenCalled();
    const rate = rateEvent('flat_rate:6');
    await flow.shippingRateChange(rate);
    expect(rate.reject).toHaveBeenCalledOnce();
  });

  it('says why when the product could not go into the cart, and the sheet goes no further', async () => {
    const sent = stubShop(
      purchaseRoutes({ wc_stripe_add_to_cart: jsonResponse({ success: false, data: { error: { message: 'You cannot add that amount of &quot;Beanie&quot; to the cart.' } } }, { status: 400 }) }),
    );
    const { flow, ui } = flowFor('product');
    flow.click(clickEvent());
    const address = addressEvent();
    await flow.shippingAddressChange(address);
    expect(address.reject).toHaveBeenCalledOnce();
    expect(ui.notice).toHaveBeenLastCalledWith('You cannot add that amount of "Beanie" to the cart.');
    const confirm = confirmEvent();
    await flow.confirm(confirm);
    expect(confirm.paymentFailed).toHaveBeenCalledWith({ reason: 'fail' });
    expect(fake.stripe.createPaymentMethod).not.toHaveBeenCalled();
    expect(sent.map((request) => request.url)).toEqual(['/?wc-ajax=wc_stripe_add_to_cart']);
  });

  it('pays: the element’s check, the payment method, the addresses made ready, the order with the express headers, then the thank-you page', async () => {
    const sent = stubShop(purchaseRoutes());
    const { flow, ui, complete } = flowFor('product');
    await buy(flow);

    expect(ui.busy).toHaveBeenCalledWith(true);
    expect(fake.elements.submit).toHaveBeenCalledOnce();
    expect(fake.stripe.createPaymentMethod).toHaveBeenCalledWith({ elements: fake.elements });
    const normalize = callNamed(sent, 'wc_stripe_normalize_address')!;
    expect(Object.fromEntries(form(normalize))).toMatchObject({
      security: 'n-normalize',
      'data[billing_address][first_name]': 'Ada',
      'data[billing_address][last_name]': 'Lovelace',
      'data[billing_address][state]': 'California',
      'data[billing_address][email]': 'ada@example.test',
      'data[billing_address][phone]': '5550100100',
      'data[shipping_address][address_1]': '2 Harbour Rd',
      'data[shipping_address][address_2]': 'Flat 3',
    });

    const checkout = callNamed(sent, '/wp-json/wc/store/v1/checkout')!;
    expect(checkout.method).toBe('POST');
    expect(checkout.headers.get('X-WCSTRIPE-EXPRESS-CHECKOUT')).toBe('true');
    expect(checkout.headers.get('X-WCSTRIPE-EXPRESS-CHECKOUT-NONCE')).toBe('n-express');
    expect(checkout.headers.get('Cart-Token')).toBe('TOKEN-1');
    expect(checkout.credentials).toBe('omit');
    const body = json(checkout);
    expect(body).toMatchObject({
      customer_note: '',
      payment_method: 'stripe',
      payment_data: [
        { key: 'wc-stripe-payment-method', value: 'pm_new' },
        { key: 'wc-stripe-is-deferred-intent', value: '1' },
        { key: 'express_checkout_type', value: 'apple_pay' },
      ],
    });
    // The shop's normalized fields over the wallet's.
    expect(body.billing_address).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', state: 'CA', email: 'ada@example.test', address_1: '1 Main St', city: 'San Francisco', postcode: '94110', country: 'US' });
    expect(body.shipping_address).toMatchObject({ address_1: '2 Harbour Rd', state: 'CA' });
    expect(body.shipping_address).not.toHaveProperty('email');

    expect(complete).toHaveBeenCalledWith(placed());
    expect(ui.leave).toHaveBeenCalledWith(RECEIVED, undefined);
    // The shopper's cart is not the one paid for.
    expect(ui.cartChanged).not.toHaveBeenCalled();
    expect(ui.notice).not.toHaveBeenCalledWith(expect.any(String));
  });

  it('ships to the billing address when the wallet gives no shipping address', async () => {
    const sent = stubShop(purchaseRoutes({ wc_stripe_normalize_address: jsonResponse({ success: false, data: { error: { message: 'nope' } } }, { status: 400 }) }));
    const { flow } = flowFor('product');
    flow.click(clickEvent());
    await flow.confirm(confirmEvent(false));
    const body = json(callNamed(sent, '/wp-json/wc/store/v1/checkout')!);
    // A normalizing call that fails leaves the addresses as the wallet gave them (the checkout makes them ready too).
    expect(body.shipping_address).toEqual({ first_name: 'Ada', last_name: 'Lovelace', company: '', address_1: '1 Main St', address_2: '', city: 'San Francisco', state: 'California', postcode: '94110', country: 'US', phone: '5550100100' });
  });

  it('stops at the element’s check or a refused payment method, telling the sheet and the page', async () => {
    const sent = stubShop(purchaseRoutes());
    fake.elements.submit.mockResolvedValueOnce({ error: { type: 'validation_error', message: 'Your card number is incomplete.' } });
    const { flow, ui } = flowFor('product');
    flow.click(clickEvent());
    const first = confirmEvent();
    await flow.confirm(first);
    expect(first.paymentFailed).toHaveBeenCalledWith({ reason: 'fail' });
    expect(ui.busy).toHaveBeenLastCalledWith(false);
    expect(ui.notice).toHaveBeenLastCalledWith('Your card number is incomplete.');

    fake.stripe.createPaymentMethod.mockResolvedValueOnce({ error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } });
    const second = confirmEvent();
    await flow.confirm(second);
    expect(second.paymentFailed).toHaveBeenCalledOnce();
    expect(ui.notice).toHaveBeenLastCalledWith('Your card was declined.');
    expect(callNamed(sent, '/wp-json/wc/store/v1/checkout')).toBeUndefined();
  });

  it('shows the shop’s refusal of the order on the product page', async () => {
    stubShop(
      purchaseRoutes({
        '/wp-json/wc/store/v1/checkout': jsonResponse(
          { code: 'woocommerce_rest_checkout_process_payment_error', message: 'Your card was declined.', data: { status: 400, order_id: 41, pay_url: 'http://shop.test/checkout/order-pay/41/?pay_for_order=true&key=wc_order_abc' } },
          { status: 400 },
        ),
      }),
    );
    const { flow, ui } = flowFor('product');
    const { confirm } = await buy(flow);
    expect(confirm.paymentFailed).toHaveBeenCalledOnce();
    expect(ui.notice).toHaveBeenLastCalledWith('Your card was declined.');
    expect(ui.leave).not.toHaveBeenCalled();
  });

  it('shows a failed 3-D Secure confirmation where the payment started', async () => {
    stubShop(purchaseRoutes());
    const complete = vi.fn(async (): Promise<PaymentOutcome> => ({ ok: false, message: 'We are unable to authenticate your payment method.', redirect: null }));
    const { flow, ui } = flowFor('product', { complete });
    const { confirm } = await buy(flow);
    expect(confirm.paymentFailed).toHaveBeenCalledOnce();
    expect(ui.notice).toHaveBeenLastCalledWith('We are unable to authenticate your payment method.');
  });

  it('shows a request that got no answer in the request-status wording', async () => {
    stubShop(purchaseRoutes({ '/wp-json/wc/store/v1/checkout': () => Promise.reject(new TypeError('Failed to fetch')) as never }));
    const { flow, ui } = flowFor('product');
    await buy(flow);
    expect(ui.notice).toHaveBeenLastCalledWith('An error occurred while connecting to the server. Please try again.');
  });

  it('ignores a second click while a payment is under way', async () => {
    stubShop(purchaseRoutes({ '/wp-json/wc/store/v1/checkout': () => new Promise<Response>(() => {}) as never }));
    const { flow } = flowFor('product');
    flow.click(clickEvent());
    void flow.confirm(confirmEvent());
    await Promise.resolve();
    const again = clickEvent();
    flow.click(again);
    expect(again.reject).toHaveBeenCalledOnce();
  });

  it('leaves nothing behind when the sheet is closed: the button’s cart is simply abandoned', async () => {
    const sent = stubShop(purchaseRoutes());
    const { flow, ui } = flowFor('product');
    flow.click(clickEvent());
    await flow.shippingAddressChange(addressEvent());
    const before = sent.length;
    await flow.cancel();
    expect(sent).toHaveLength(before);
    expect(ui.cartChanged).not.toHaveBeenCalled();
  });
});

describe('a cart page’s express purchase', () => {
  const cartQuote = () => ({ sheet: sheet(3806, 0), requestShipping: true });

  it('opens with the cart’s lines and its shipping line, notes the cart, and works on the shopper’s session', async () => {
    const sent = stubShop(purchaseRoutes());
    const { flow, cart } = flowFor('cart', { quote: cartQuote });
    const click = clickEvent();
    flow.click(click);
    expect(click.resolve).toHaveBeenCalledWith(
      expect.objectContaining({
        lineItems: [
          { name: 'Beanie (x2)', amount: 3600 },
          { name: 'Tax', amount: 306 },
          { name: 'Shipping', amount: 0 },
          { name: 'Discount', amount: -100 },
        ],
        shippingRates: [{ id: 'rate-Shipping', amount: 0, displayName: 'Shipping' }],
      }),
    );
    expect(cart.read).toHaveBeenCalledOnce();
    await flow.shippingAddressChange(addressEvent());
    const options = callNamed(sent, 'wc_stripe_get_shipping_options')!;
    expect(form(options).get('is_product_page')).toBe('0');
    expect(options.headers.has('Cart-Token')).toBe(false);
    expect(options.credentials).toBe('same-origin');
  });

  it('pays the shopper’s cart with their nonce, then the cart is refreshed once the thank-you page shows', async () => {
    const sent = stubShop(purchaseRoutes());
    const order: string[] = [];
    const { flow, ui } = flowFor('cart', { quote: cartQuote });
    ui.leave.mockImplementation(async () => {
      order.push('leave');
    });
    ui.cartChanged.mockImplementation(() => order.push('cart changed'));
    await buy(flow);
    const checkout = callNamed(sent, '/wp-json/wc/store/v1/checkout')!;
    expect(checkout.headers.get('Nonce')).toBe('n-store');
    expect(checkout.headers.get('X-WCSTRIPE-EXPRESS-CHECKOUT-NONCE')).toBe('n-express');
    expect(checkout.credentials).toBe('same-origin');
    expect(order).toEqual(['leave', 'cart changed']);
  });

  it('sends a declined payment on to the order’s own page, as the checkout does', async () => {
    stubShop(
      purchaseRoutes({
        '/wp-json/wc/store/v1/checkout': jsonResponse(
          { code: 'woocommerce_rest_checkout_process_payment_error', message: 'Your card was declined.', data: { status: 400, pay_url: 'http://shop.test/checkout/order-pay/41/?pay_for_order=true&key=wc_order_abc' } },
          { status: 400 },
        ),
      }),
    );
    const { flow, ui } = flowFor('cart', { quote: cartQuote });
    await buy(flow);
    expect(ui.leave).toHaveBeenCalledWith('/checkout/order-pay/41/?pay_for_order=true&key=wc_order_abc', 'Your card was declined.');
    expect(ui.cartChanged).toHaveBeenCalledOnce();
  });

  it('puts the cart’s address and rate back when the sheet closes after changing them', async () => {
    stubShop(purchaseRoutes());
    const { flow, ui, cart, before } = flowFor('cart', { quote: cartQuote });
    flow.click(clickEvent());
    await flow.shippingAddressChange(addressEvent());
    await flow.cancel();
    expect(cart.restore).toHaveBeenCalledWith(before);
    expect(ui.cartChanged).toHaveBeenCalledOnce();

    // A sheet closed before it changed anything leaves the cart alone.
    flow.click(clickEvent());
    await flow.cancel();
    expect(cart.restore).toHaveBeenCalledOnce();
  });
});

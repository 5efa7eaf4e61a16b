import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, resetNonce } from '@/lib/api-client';
import fixture from '@/test/fixtures/payments-page-settings.json';
import { fakeStripe, type FakeStripe } from '@/test/fake-stripe';
import { stubShop, type SentRequest } from '@/test/fetch-stub';
import { jsonResponse } from '@/test/render';
import { leavePage } from '@/lib/leave-page';
import type { PaymentPageSettings } from '../api/get-page-settings';
import { completePayment, paymentRefusal, preparePayment, retryPageOf, savePaymentMethod, type PaymentState } from './payment-flow';

vi.mock('@/lib/leave-page', () => ({ leavePage: vi.fn() }));

const pageSettings = fixture as unknown as PaymentPageSettings;
const billing = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.test', phone: '555', address_1: '1 Main St', address_2: '', city: 'London', state: '', postcode: 'N1 1AA', country: 'GB' };
const fields = (request: SentRequest) => Object.fromEntries(new URLSearchParams(request.body));

let fake: FakeStripe;
function state(overrides: Partial<PaymentState> = {}): PaymentState {
  return {
    pageSettings,
    page: 'checkout',
    type: 'card',
    stripe: fake.stripe as unknown as Stripe,
    elements: fake.elements as unknown as StripeElements,
    loadFailed: false,
    savedMethodId: null,
    saveNew: false,
    billing,
    blikCode: '',
    ...overrides,
  };
}

beforeEach(() => {
  fake = fakeStripe();
  resetNonce();
  vi.unstubAllGlobals();
  vi.mocked(leavePage).mockClear();
});

describe('preparing a payment', () => {
  it('checks the element, creates the method with the billing details and hands its id over', async () => {
    const prepared = await preparePayment(state({ saveNew: true }));
    expect(fake.elements.submit).toHaveBeenCalledOnce();
    expect(fake.stripe.createPaymentMethod).toHaveBeenCalledWith({
      elements: fake.elements,
      params: {
        billing_details: {
          name: 'Ada Lovelace',
          email: 'ada@example.test',
          phone: '555',
          address: { city: 'London', country: 'GB', line1: '1 Main St', line2: '', postal_code: 'N1 1AA', state: '' },
        },
      },
    });
    expect(prepared).toEqual({
      ok: true,
      paymentMethodId: 'pm_new',
      paymentData: [
        { key: 'wc-stripe-payment-method', value: 'pm_new' },
        { key: 'wc-stripe-is-deferred-intent', value: '1' },
        { key: 'wc-stripe-payment-type', value: 'card' },
        { key: 'wc-stripe-new-payment-method', value: 'true' },
      ],
    });
  });

  it('pays with a saved method without the element', async () => {
    const prepared = await preparePayment(state({ savedMethodId: 7, elements: null, stripe: null }));
    expect(prepared).toEqual({
      ok: true,
      paymentData: [
        { key: 'wc-stripe-payment-token', value: '7' },
        { key: 'wc-stripe-is-deferred-intent', value: '1' },
        { key: 'wc-stripe-payment-type', value: 'card' },
        { key: 'wc-stripe-new-payment-method', value: 'false' },
      ],
    });
    expect(fake.stripe.createPaymentMethod).not.toHaveBeenCalled();
  });

  it('asks for the details when the element failed to load', async () => {
    expect(await preparePayment(state({ loadFailed: true }))).toEqual({
      ok: false,
      message: 'Invalid or missing payment details. Please ensure the provided payment method is correctly entered.',
    });
    expect(await preparePayment(state({ elements: null }))).toMatchObject({ ok: false, message: expect.stringMatching(/^Invalid or missing payment details/) });
  });

  it('shows the element’s own message when its check fails', async () => {
    fake.elements.submit.mockResolvedValueOnce({ error: { type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' } });
    expect(await preparePayment(state())).toEqual({ ok: false, message: 'Your card number is incomplete.' });
    expect(fake.stripe.createPaymentMethod).not.toHaveBeenCalled();
  });

  it('reads a refused payment method through the page settings’ messages and the missing-field rule', async () => {
    fake.stripe.createPaymentMethod.mockResolvedValueOnce({ error: { type: 'card_error', code: 'invalid_number', message: 'Bad number' } });
    expect(await preparePayment(state())).toEqual({ ok: false, message: 'The card number is not a valid credit card number.' });
    fake.stripe.createPaymentMethod.mockResolvedValueOnce({ error: { type: 'invalid_request_error', code: 'parameter_missing', param: 'billing_details[address][country]', message: 'Missing' } });
    expect(await preparePayment(state())).toEqual({ ok: false, message: 'Billing Country / Region is a required field.' });
  });

  it('checks a BLIK code before anything else and sends it along', async () => {
    expect(await preparePayment(state({ type: 'blik', blikCode: '12345' }))).toEqual({ ok: false, message: 'BLIK Code is invalid' });
    expect(fake.elements.submit).not.toHaveBeenCalled();
    const prepared = await preparePayment(state({ type: 'blik', blikCode: '123456' }));
    expect(prepared.ok && prepared.paymentData).toContainEqual({ key: 'wc-stripe-blik-code', value: '123456' });
  });

  it('shows the shop’s generic message for a fault in the page', async () => {
    fake.stripe.createPaymentMethod.mockRejectedValueOnce(new TypeError('elements is undefined'));
    expect(await preparePayment(state())).toEqual({ ok: false, message: pageSettings.genericErrorMessage });
  });
});

describe('completing a payment', () => {
  const placed = (redirect: string, status = 'success') => ({ order_id: 12, order_key: 'wc_order_abc', payment_result: { payment_status: status, redirect_url: redirect } });
  const context = (overrides = {}) => ({ provider: async () => fake.stripe as unknown as Stripe, paymentMethodToSave: '', retryPage: '/checkout/order-pay/12?pay_for_order=true&key=wc_order_abc', ...overrides });

  it('goes on to the order page of a paid order', async () => {
    expect(await completePayment(state(), placed('/checkout/order-received/12/?key=wc_order_abc'), context())).toEqual({
      ok: true,
      redirect: '/checkout/order-received/12/?key=wc_order_abc',
    });
    expect(fake.stripe.handleNextAction).not.toHaveBeenCalled();
  });

  it('confirms 3-D Secure in place, then reports it with the fragment’s nonce and follows the answer', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: true, data: { return_url: '/checkout/order-received/12/?key=wc_order_abc' } }));
    fake.stripe.handleNextAction.mockResolvedValueOnce({ paymentIntent: { id: 'pi_3ds', status: 'succeeded' } });
    const outcome = await completePayment(state(), placed('/checkout/#wc-stripe-confirm-pi:12:pi_3ds_secret_abc:NONCE1', 'pending'), context({ paymentMethodToSave: 'pm_new' }));
    expect(fake.stripe.handleNextAction).toHaveBeenCalledWith({ clientSecret: 'pi_3ds_secret_abc' });
    expect(sent[0]!.url).toBe('/?wc-ajax=wc_stripe_update_order_status');
    expect(fields(sent[0]!)).toEqual({ order_id: '12', intent_id: 'pi_3ds', payment_method_id: 'pm_new', _ajax_nonce: 'NONCE1' });
    expect(outcome).toEqual({ ok: true, redirect: '/checkout/order-received/12/?key=wc_order_abc' });
  });

  it('loads the provider for a saved card that needs 3-D Secure', async () => {
    stubShop(() => jsonResponse({ success: true, data: { return_url: '/thanks' } }));
    const provider = vi.fn(async () => fake.stripe as unknown as Stripe);
    await completePayment(state({ stripe: null }), placed('/checkout/#wc-stripe-confirm-pi:12:pi_1_secret_2:N'), context({ provider }));
    expect(provider).toHaveBeenCalledOnce();
  });

  it('reports a failed authentication and sends the shopper to pay the order again', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: true }));
    fake.stripe.handleNextAction.mockResolvedValueOnce({
      error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure', message: 'Auth failed', payment_intent: { id: 'pi_3ds', status: 'requires_payment_method' } },
    });
    const outcome = await completePayment(state(), placed('/checkout/#wc-stripe-confirm-pi:12:pi_3ds_secret_abc:NONCE1', 'pending'), context());
    expect(sent.map((request) => request.url)).toEqual(['/?wc-ajax=wc_stripe_update_failed_order']);
    expect(fields(sent[0]!)).toEqual({ intent_id: 'pi_3ds', order_id: '12', _ajax_nonce: 'n-failed' });
    expect(outcome).toEqual({
      ok: false,
      message: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      redirect: '/checkout/order-pay/12?pay_for_order=true&key=wc_order_abc',
    });
  });

  it('shows the shop’s refusal of the confirmation', async () => {
    stubShop((request) =>
      request.url.includes('update_order_status') ? jsonResponse({ success: false, data: { error: { message: 'The order is no longer pending.' } } }, { status: 400 }) : jsonResponse({ success: true }),
    );
    const outcome = await completePayment(state(), placed('/checkout/#wc-stripe-confirm-pi:12:pi_1_secret_2:N'), context({ retryPage: null }));
    expect(outcome).toEqual({ ok: false, message: 'The order is no longer pending.', redirect: null });
  });

  it('says the payment failed when the answer is a failure', async () => {
    expect(await completePayment(state(), placed('', 'failure'), context())).toEqual({ ok: false, message: 'Payment failed. Please try again.', redirect: null });
  });

  it('tells the shop about a changed payment method with the other call', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: true, data: { return_url: '/my-account/view-order/12' } }));
    fake.stripe.handleNextAction.mockResolvedValueOnce({ setupIntent: { id: 'seti_9', status: 'succeeded' } });
    await completePayment(state({ page: 'change-payment' }), placed('/checkout/order-pay/12/?key=k#wc-stripe-confirm-si:12:seti_9_secret_x:N2'), context());
    expect(sent[0]!.url).toBe('/?wc-ajax=wc_stripe_confirm_change_payment');
    expect(fields(sent[0]!)).toMatchObject({ intent_id: 'seti_9', _ajax_nonce: 'N2' });
  });

  it('sends the browser to a redirect method’s page of the provider, not through the app', async () => {
    const settled = vi.fn();
    void completePayment(state(), placed('https://hooks.provider.test/redirect/authenticate/src_1?client_secret=x'), context()).then(settled);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(leavePage).toHaveBeenCalledWith('https://hooks.provider.test/redirect/authenticate/src_1?client_secret=x');
    // The page is being left: the form stays blocked.
    expect(settled).not.toHaveBeenCalled();
  });

  it('keeps the shop’s own addresses, absolute or not, for the app’s navigation', async () => {
    const own = `${window.location.origin}/checkout/order-received/12/?key=wc_order_abc`;
    expect(await completePayment(state(), placed(own), context())).toEqual({ ok: true, redirect: own });
    expect(leavePage).not.toHaveBeenCalled();
  });

  it('shows a voucher the answer asks for, then goes on to the order', async () => {
    const confirmOxxoPayment = vi.fn(async () => ({ paymentIntent: { id: 'pi_5', status: 'requires_action' } }));
    Object.assign(fake.stripe, { confirmOxxoPayment });
    const back = encodeURIComponent(`${window.location.origin}/checkout/order-received/12/?key=wc_order_abc`);
    const outcome = await completePayment(state(), placed(`#wc-stripe-voucher-12:oxxo:pi_5_secret_v:${back}`), context());
    expect(confirmOxxoPayment).toHaveBeenCalledWith('pi_5_secret_v', {});
    expect(outcome).toEqual({ ok: true, redirect: '/checkout/order-received/12/?key=wc_order_abc' });
  });

  it('opens a wallet’s dialog the answer asks for; closed, the order waits on its payment page', async () => {
    const confirmWechatPayPayment = vi.fn(async () => ({ paymentIntent: { id: 'pi_8', status: 'requires_action' } }));
    Object.assign(fake.stripe, { confirmWechatPayPayment });
    const outcome = await completePayment(state({ stripe: null }), placed(`/checkout/#wc-stripe-wallet-12:wechat_pay:payment_intent:pi_8_secret_w:%2Fthanks:N`), context());
    expect(confirmWechatPayPayment).toHaveBeenCalledOnce();
    expect(outcome).toEqual({ ok: false, message: '', redirect: '/checkout/order-pay/12?pay_for_order=true&key=wc_order_abc' });
  });

  it('confirms the older card fragment and follows its return URL', async () => {
    fake.stripe.handleNextAction.mockResolvedValueOnce({ paymentIntent: { id: 'pi_7', status: 'succeeded' } });
    expect(await completePayment(state(), placed('#confirm-pi-pi_7_secret_k:%2Fcheckout%2Forder-received%2F12%2F%3Fkey%3Dk'), context())).toEqual({
      ok: true,
      redirect: '/checkout/order-received/12/?key=k',
    });
  });

  it('cannot go on with a fragment it cannot read', async () => {
    expect(await completePayment(state(), placed('/checkout/#wc-stripe-voucher-12:oxxo:pi_5_secret_v:%ZZ'), context())).toEqual({
      ok: false,
      message: 'Payment failed. Please try again.',
      redirect: '/checkout/order-pay/12?pay_for_order=true&key=wc_order_abc',
    });
    expect(leavePage).not.toHaveBeenCalled();
  });

  it('tries again from the order-pay page only at checkout', () => {
    const answer = placed('/x');
    expect(retryPageOf(answer, 'checkout')).toBe('/checkout/order-pay/12?pay_for_order=true&key=wc_order_abc');
    expect(retryPageOf(answer, 'order-pay')).toBeNull();
    expect(retryPageOf({ ...answer, order_key: undefined }, 'checkout')).toBeNull();
  });
});

describe('a refused order call', () => {
  it('sends a declined checkout to the order’s pay page with the configured message', () => {
    const declined = new ApiError('Your card was declined.', 'card_declined', 400, { status: 400, order_id: 12, pay_url: 'http://shop.test/checkout/order-pay/12/?pay_for_order=true&key=wc_order_abc' });
    expect(paymentRefusal(declined, pageSettings, 'checkout')).toEqual({ message: 'The card was declined.', redirect: '/checkout/order-pay/12/?pay_for_order=true&key=wc_order_abc' });
    expect(paymentRefusal(declined, pageSettings, 'order-pay')).toEqual({ message: 'The card was declined.', redirect: null });
  });

  it('keeps the shop’s words for a process error with a pay page', () => {
    const refused = new ApiError('The card was declined.', 'woocommerce_rest_checkout_process_error', 400, { status: 400, pay_url: '/checkout/order-pay/12/?key=k' });
    expect(paymentRefusal(refused, pageSettings, 'checkout')).toEqual({ message: 'The card was declined.', redirect: '/checkout/order-pay/12/?key=k' });
  });

  it('leaves other refusals to the form', () => {
    expect(paymentRefusal(new ApiError('Invalid parameter(s): billing_address', 'rest_invalid_param', 400, { status: 400 }), pageSettings, 'checkout')).toBeNull();
    expect(paymentRefusal(new Error('x'), pageSettings, 'checkout')).toBeNull();
  });
});

describe('saving a payment method', () => {
  const intent = (overrides = {}) => ({ success: true, data: { id: 'seti_1', status: 'succeeded', next_action: null, payment_type: 'card', return_url: '', client_secret: 'seti_1_secret_2', ...overrides } });

  it('creates the method and the setup intent, then goes back to the saved methods', async () => {
    const { sent } = stubShop(() => jsonResponse(intent()));
    const outcome = await savePaymentMethod(state({ page: 'add-payment-method', billing: null }));
    expect(fake.stripe.createPaymentMethod).toHaveBeenCalledWith({ elements: fake.elements, params: {} });
    expect(fields(sent[0]!)).toMatchObject({ 'wc-stripe-payment-method': 'pm_new', 'wc-stripe-payment-type': 'card' });
    expect(fake.stripe.confirmSetup).not.toHaveBeenCalled();
    expect(outcome).toEqual({ ok: true, redirect: '/my-account/payment-methods/' });
  });

  it('confirms the setup in the page when the card asks, and names it on the way back', async () => {
    stubShop(() => jsonResponse(intent({ status: 'requires_action', next_action: { type: 'use_stripe_sdk' } })));
    expect(await savePaymentMethod(state({ page: 'add-payment-method' }))).toEqual({
      ok: true,
      redirect: '/my-account/payment-methods/?setup_intent=seti_1&redirect_status=succeeded',
    });
    expect(fake.stripe.confirmSetup).toHaveBeenCalledWith({ clientSecret: 'seti_1_secret_2', redirect: 'if_required' });
  });

  it('shows a failed confirmation', async () => {
    stubShop(() => jsonResponse(intent({ status: 'requires_action', next_action: { type: 'use_stripe_sdk' } })));
    fake.stripe.confirmSetup.mockResolvedValueOnce({ error: { type: 'card_error', code: 'card_declined', message: 'Declined' } });
    expect(await savePaymentMethod(state({ page: 'add-payment-method' }))).toEqual({ ok: false, message: 'The card was declined.', redirect: null });
  });

  it('follows a redirect the setup needs', async () => {
    stubShop(() => jsonResponse(intent({ status: 'requires_action', next_action: { type: 'redirect_to_url', redirect_to_url: { url: 'https://bank.example/authorize' } } })));
    expect(await savePaymentMethod(state({ page: 'add-payment-method' }))).toEqual({ ok: true, redirect: 'https://bank.example/authorize' });
  });

  it('lets Cash App confirm its own setup, and stops quietly when left unfinished', async () => {
    stubShop(() => jsonResponse(intent({ status: 'requires_action', next_action: { type: 'cashapp_handle_redirect_or_display_qr_code' }, payment_type: 'cashapp', return_url: '%2Fmy-account%2Fpayment-methods%2F' })));
    expect(await savePaymentMethod(state({ page: 'add-payment-method' }))).toEqual({ ok: true, redirect: '/my-account/payment-methods/' });
    expect(fake.stripe.confirmCashappSetup).toHaveBeenCalledWith('seti_1_secret_2', { return_url: '/my-account/payment-methods/' });
    fake.stripe.confirmCashappSetup.mockResolvedValueOnce({ setupIntent: { id: 'seti_1', status: 'requires_action' } });
    expect(await savePaymentMethod(state({ page: 'add-payment-method' }))).toEqual({ ok: false, message: '', redirect: null });
  });

  it('shows the shop’s refusal of the setup', async () => {
    stubShop(() => jsonResponse({ success: false, data: { error: { message: 'Your card was declined.' } } }, { status: 400 }));
    expect(await savePaymentMethod(state({ page: 'add-payment-method' }))).toEqual({ ok: false, message: 'Your card was declined.', redirect: null });
  });

  it('changes an order’s method with the change nonce', async () => {
    const { sent } = stubShop((request) =>
      request.url.includes('admin-ajax') ? jsonResponse(intent({ id: 'seti_5' })) : jsonResponse({ success: true, data: { return_url: '/my-account/view-order/12' } }),
    );
    const outcome = await savePaymentMethod(state({ page: 'change-payment', pageSettings: { ...pageSettings, orderId: 12 } }));
    expect(sent[1]!.url).toBe('/?wc-ajax=wc_stripe_confirm_change_payment');
    expect(fields(sent[1]!)).toEqual({ order_id: '12', intent_id: 'seti_5', payment_method_id: 'pm_new', _ajax_nonce: 'n-change' });
    expect(outcome).toEqual({ ok: true, redirect: '/my-account/view-order/12' });
  });
});

import type { Stripe } from '@stripe/stripe-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetNonce } from '@/lib/api-client';
import { fakeStripe } from '@/test/fake-stripe';
import { stubShop, type SentRequest } from '@/test/fetch-stub';
import fixture from '@/test/fixtures/payments-page-settings.json';
import { jsonResponse } from '@/test/render';
import type { PaymentPageSettings } from '../api/get-page-settings';
import { parseReturnFragment, type LegacyConfirmFragment, type ReturnFragment, type VoucherFragment, type WalletFragment } from './confirm-fragment';
import type { PaymentPage } from './method-rules';
import {
  confirmLegacyFragment,
  confirmVoucherFragment,
  confirmWalletFragment,
  handleReturnFragment,
  voucherDestination,
  withAjaxFlag,
  type FragmentContext,
} from './return-fragments';

const pageSettings = fixture as unknown as PaymentPageSettings;
const fields = (request: SentRequest) => Object.fromEntries(new URLSearchParams(request.body));
const origin = window.location.origin;
const RECEIVED = `${origin}/checkout/order-received/12/?key=wc_order_abc`;
const PROBLEM = 'There was a problem processing the payment. Please refresh the page to try again.';
const STAY = { ok: false, message: '', redirect: null };

/** The test stand-in for the provider, with the voucher and wallet confirmations too. */
function provider() {
  const fake = fakeStripe();
  return Object.assign(fake.stripe, {
    confirmBoletoPayment: vi.fn(async (_secret: string, _data?: unknown): Promise<unknown> => ({ paymentIntent: { id: 'pi_5', status: 'requires_action' } })),
    confirmMultibancoPayment: vi.fn(async (_secret: string, _data?: unknown): Promise<unknown> => ({ paymentIntent: { id: 'pi_5', status: 'requires_action' } })),
    confirmOxxoPayment: vi.fn(async (_secret: string, _data?: unknown): Promise<unknown> => ({ paymentIntent: { id: 'pi_5', status: 'requires_action' } })),
    confirmWechatPayPayment: vi.fn(async (_secret: string, _data?: unknown): Promise<unknown> => ({ paymentIntent: { id: 'pi_8', status: 'succeeded', payment_method: 'pm_w' } })),
    confirmCashappPayment: vi.fn(async (_secret: string, _data?: unknown): Promise<unknown> => ({ paymentIntent: { id: 'pi_8', status: 'succeeded', payment_method: { id: 'pm_c' } } })),
    confirmCashappSetup: vi.fn(async (_secret: string, _data?: unknown): Promise<unknown> => ({ setupIntent: { id: 'seti_9', status: 'succeeded', payment_method: 'pm_s' } })),
  });
}

let stripe: ReturnType<typeof provider>;

function context(overrides: Partial<FragmentContext> & { settings?: Partial<PaymentPageSettings>; page?: PaymentPage } = {}): FragmentContext {
  const { settings, ...rest } = overrides;
  return { pageSettings: { ...pageSettings, ...settings }, page: 'checkout', provider: async () => stripe as unknown as Stripe, ...rest };
}

function parsed<K extends ReturnFragment['kind']>(kind: K, fragment: string): Extract<ReturnFragment, { kind: K }> {
  const result = parseReturnFragment(fragment);
  if (result?.kind !== kind) throw new Error(`not a ${kind} fragment: ${fragment}`);
  return result as Extract<ReturnFragment, { kind: K }>;
}

const voucher = (method = 'boleto', returnUrl = RECEIVED, order = 12): VoucherFragment =>
  parsed('voucher', `#wc-stripe-voucher-${order}:${method}:pi_5_secret_v:${encodeURIComponent(returnUrl)}`);
const wallet = (type = 'wechat_pay', kind = 'payment_intent', returnUrl = RECEIVED, order = 12): WalletFragment =>
  parsed('wallet', `#wc-stripe-wallet-${order}:${type}:${kind}:${kind === 'setup_intent' ? 'seti_9' : 'pi_8'}_secret_w:${encodeURIComponent(returnUrl)}:f00d`);
const legacy = (returnUrl = RECEIVED, kind = 'pi'): LegacyConfirmFragment =>
  parsed('legacy-confirm', `#confirm-${kind}-${kind === 'si' ? 'seti_4' : 'pi_7'}_secret_k:${encodeURIComponent(returnUrl)}`);

beforeEach(() => {
  stripe = provider();
  resetNonce();
  vi.unstubAllGlobals();
});

afterEach(() => window.history.replaceState(null, '', '/'));

describe('a voucher fragment', () => {
  it.each([
    ['boleto', 'confirmBoletoPayment'],
    ['multibanco', 'confirmMultibancoPayment'],
    ['oxxo', 'confirmOxxoPayment'],
  ] as const)('shows a %s voucher, then goes to the shop’s return URL', async (method, call) => {
    expect(await confirmVoucherFragment(voucher(method), context())).toEqual({ ok: true, redirect: '/checkout/order-received/12/?key=wc_order_abc' });
    expect(stripe[call]).toHaveBeenCalledWith('pi_5_secret_v', {});
  });

  it('takes the fragment out of the page’s address, keeping its path and query', async () => {
    const fragment = `#wc-stripe-voucher-12:oxxo:pi_5_secret_v:${encodeURIComponent(RECEIVED)}`;
    window.history.replaceState({ idx: 1 }, '', `/checkout/?utm=x${fragment}`);
    await confirmVoucherFragment(voucher('oxxo'), context());
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/checkout/?utm=x');
    expect(window.history.state).toEqual({ idx: 1 });
  });

  it('goes to the order-received address plus the order id when the return URL is another site’s', async () => {
    const outcome = await confirmVoucherFragment(voucher('boleto', 'https://evil.test/phish'), context({ settings: { orderReceivedURL: `${origin}/checkout/order-received/` } }));
    expect(outcome).toEqual({ ok: true, redirect: '/checkout/order-received/12' });
  });

  it('says there was a problem when neither address is usable', async () => {
    const outcome = await confirmVoucherFragment(voucher('boleto', 'https://evil.test/phish'), context({ settings: { orderReceivedURL: '' } }));
    expect(outcome).toEqual({ ok: false, message: PROBLEM, redirect: null });
    expect(stripe.confirmBoletoPayment).toHaveBeenCalledOnce();
  });

  it('ignores, on an order’s own page, the voucher of another order', async () => {
    expect(await confirmVoucherFragment(voucher('oxxo', RECEIVED, 13), context({ page: 'order-pay', settings: { orderId: 12 } }))).toEqual(STAY);
    expect(stripe.confirmOxxoPayment).not.toHaveBeenCalled();
    expect(await confirmVoucherFragment(voucher('oxxo', RECEIVED, 12), context({ page: 'order-pay', settings: { orderId: 12 } }))).toMatchObject({ ok: true });
  });

  it('shows the provider’s message, or the configured one for its code', async () => {
    stripe.confirmOxxoPayment.mockResolvedValueOnce({ error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: 'This voucher has expired.' } });
    expect(await confirmVoucherFragment(voucher('oxxo'), context())).toEqual({ ok: false, message: 'This voucher has expired.', redirect: null });
    stripe.confirmOxxoPayment.mockResolvedValueOnce({ error: { type: 'card_error', code: 'card_declined', message: 'Declined' } });
    expect(await confirmVoucherFragment(voucher('oxxo'), context())).toEqual({ ok: false, message: 'The card was declined.', redirect: null });
  });

  it('says there was a problem for an error with nothing to say, a fault, or no provider', async () => {
    stripe.confirmOxxoPayment.mockResolvedValueOnce({ error: { type: 'api_error' } });
    expect(await confirmVoucherFragment(voucher('oxxo'), context())).toEqual({ ok: false, message: PROBLEM, redirect: null });
    stripe.confirmOxxoPayment.mockRejectedValueOnce(new TypeError('x is undefined'));
    expect(await confirmVoucherFragment(voucher('oxxo'), context())).toEqual({ ok: false, message: PROBLEM, redirect: null });
    expect(await confirmVoucherFragment(voucher('oxxo'), context({ provider: async () => null }))).toEqual({ ok: false, message: PROBLEM, redirect: null });
  });

  it('reads the order-received address as the page settings give it', () => {
    expect(voucherDestination({ returnUrl: '/thanks/12', orderId: 12 }, { orderReceivedURL: '' })).toBe('/thanks/12');
    expect(voucherDestination({ returnUrl: 'https://evil.test/', orderId: 12 }, { orderReceivedURL: 'https://pay.shop.test/received/' })).toBe('https://pay.shop.test/received/12');
    expect(voucherDestination({ returnUrl: 'https://evil.test/', orderId: 12 }, { orderReceivedURL: 'javascript:alert(' })).toBeNull();
  });
});

describe('a wallet fragment', () => {
  const changePayment = (request: SentRequest) => request.url === '/?wc-ajax=wc_stripe_confirm_change_payment';

  it('confirms WeChat Pay for the web, then tells the shop with the fragment’s nonce and goes where it says', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: true, data: { return_url: '/checkout/order-received/12/?key=wc_order_abc' } }));
    const outcome = await confirmWalletFragment(wallet(), context());
    expect(stripe.confirmWechatPayPayment).toHaveBeenCalledWith('pi_8_secret_w', { payment_method_options: { wechat_pay: { client: 'web' } } });
    expect(sent).toHaveLength(1);
    expect(changePayment(sent[0]!)).toBe(true);
    expect(fields(sent[0]!)).toEqual({ order_id: '12', intent_id: 'pi_8', payment_method_id: 'pm_w', _ajax_nonce: 'f00d' });
    expect(outcome).toEqual({ ok: true, redirect: '/checkout/order-received/12/?key=wc_order_abc' });
  });

  it('confirms a Cash App payment, or setup, with the return URL', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: true, data: { return_url: '/done' } }));
    await confirmWalletFragment(wallet('cashapp'), context());
    expect(stripe.confirmCashappPayment).toHaveBeenCalledWith('pi_8_secret_w', { return_url: RECEIVED });
    expect(fields(sent[0]!)).toMatchObject({ intent_id: 'pi_8', payment_method_id: 'pm_c' });
    await confirmWalletFragment(wallet('cashapp', 'setup_intent', '/my-account/payment-methods/'), context({ page: 'change-payment', settings: { orderId: 12 } }));
    expect(stripe.confirmCashappSetup).toHaveBeenCalledWith('seti_9_secret_w', { return_url: `${origin}/my-account/payment-methods/` });
    expect(fields(sent[1]!)).toMatchObject({ intent_id: 'seti_9', payment_method_id: 'pm_s', _ajax_nonce: 'f00d' });
  });

  it('sends the wallet’s app back to this page rather than to another site', async () => {
    stubShop(() => jsonResponse({ success: true, data: { return_url: '/done' } }));
    window.history.replaceState(null, '', '/checkout/?step=pay');
    await confirmWalletFragment(wallet('cashapp', 'payment_intent', 'https://evil.test/'), context());
    expect(stripe.confirmCashappPayment).toHaveBeenCalledWith('pi_8_secret_w', { return_url: `${origin}/checkout/?step=pay` });
  });

  it('refuses another wallet with the page settings’ message', async () => {
    const { sent } = stubShop(() => jsonResponse({}));
    expect(await confirmWalletFragment(wallet('paypal'), context())).toEqual({ ok: false, message: pageSettings.invalid_wallet_type, redirect: null });
    expect(stripe.confirmWechatPayPayment).not.toHaveBeenCalled();
    expect(stripe.confirmCashappPayment).not.toHaveBeenCalled();
    expect(sent).toHaveLength(0);
  });

  it('leaves the shopper on the page, with nothing shown, when the dialog is closed', async () => {
    const { sent } = stubShop(() => jsonResponse({}));
    stripe.confirmWechatPayPayment.mockResolvedValueOnce({ paymentIntent: { id: 'pi_8', status: 'requires_action' } });
    window.history.replaceState(null, '', `/checkout/#wc-stripe-wallet-12:wechat_pay:payment_intent:pi_8_secret_w:${encodeURIComponent(RECEIVED)}:f00d`);
    expect(await confirmWalletFragment(wallet(), context())).toEqual(STAY);
    expect(sent).toHaveLength(0);
    expect(window.location.hash).toBe('');
  });

  it('shows a failed payment’s error', async () => {
    const { sent } = stubShop(() => jsonResponse({}));
    stripe.confirmCashappPayment.mockResolvedValueOnce({
      paymentIntent: { id: 'pi_8', status: 'requires_payment_method', last_payment_error: { type: 'card_error', code: 'payment_method_provider_decline', message: 'The payment was declined by Cash App.' } },
    });
    expect(await confirmWalletFragment(wallet('cashapp'), context())).toEqual({ ok: false, message: 'The payment was declined by Cash App.', redirect: null });
    stripe.confirmWechatPayPayment.mockResolvedValueOnce({ error: { type: 'invalid_request_error', message: 'The QR code expired.' } });
    expect(await confirmWalletFragment(wallet(), context())).toEqual({ ok: false, message: 'The QR code expired.', redirect: null });
    expect(sent).toHaveLength(0);
  });

  it('tells the shop of anything but waiting for the shopper (a payment still processing)', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: true, data: { return_url: '/checkout/order-received/12/?key=k' } }));
    stripe.confirmWechatPayPayment.mockResolvedValueOnce({ paymentIntent: { id: 'pi_8', status: 'processing', payment_method: null } });
    expect(await confirmWalletFragment(wallet(), context())).toEqual({ ok: true, redirect: '/checkout/order-received/12/?key=k' });
    expect(fields(sent[0]!)).toMatchObject({ intent_id: 'pi_8', payment_method_id: '' });
  });

  it('shows the shop’s refusal', async () => {
    stubShop(() => jsonResponse({ success: false, data: { error: { message: 'The order could not be updated.' } } }, { status: 400 }));
    expect(await confirmWalletFragment(wallet(), context())).toEqual({ ok: false, message: 'The order could not be updated.', redirect: null });
  });

  it('sends the shopper whose checkout became an unpaid order to its payment page', async () => {
    stubShop(() => jsonResponse({}));
    const retry = { retryPage: '/checkout/order-pay/12/?pay_for_order=true&key=k' };
    stripe.confirmWechatPayPayment.mockResolvedValueOnce({ error: { type: 'invalid_request_error', message: 'The QR code expired.' } });
    expect(await confirmWalletFragment(wallet(), context(retry))).toEqual({ ok: false, message: 'The QR code expired.', redirect: retry.retryPage });
    // Closed without paying: there too, with nothing to say.
    stripe.confirmWechatPayPayment.mockResolvedValueOnce({ paymentIntent: { id: 'pi_8', status: 'requires_action' } });
    expect(await confirmWalletFragment(wallet(), context(retry))).toEqual({ ok: false, message: '', redirect: retry.retryPage });
  });

  it('ignores, on an order’s own page, the wallet of another order', async () => {
    expect(await confirmWalletFragment(wallet('wechat_pay', 'payment_intent', RECEIVED, 99), context({ page: 'change-payment', settings: { orderId: 12 } }))).toEqual(STAY);
    expect(stripe.confirmWechatPayPayment).not.toHaveBeenCalled();
  });

  it('shows the shop’s generic message when the provider cannot be loaded', async () => {
    expect(await confirmWalletFragment(wallet(), context({ provider: async () => null }))).toEqual({ ok: false, message: pageSettings.genericErrorMessage, redirect: null });
  });
});

describe('an older card confirmation fragment', () => {
  it('goes to the return URL once the payment is paid, or held for capture', async () => {
    expect(await confirmLegacyFragment(legacy(), context())).toEqual({ ok: true, redirect: '/checkout/order-received/12/?key=wc_order_abc' });
    expect(stripe.handleNextAction).toHaveBeenCalledWith({ clientSecret: 'pi_7_secret_k' });
    stripe.handleNextAction.mockResolvedValueOnce({ paymentIntent: { id: 'pi_7', status: 'requires_capture' } });
    expect(await confirmLegacyFragment(legacy(), context())).toMatchObject({ ok: true });
    stripe.handleNextAction.mockResolvedValueOnce({ setupIntent: { id: 'seti_4', status: 'succeeded' } });
    expect(await confirmLegacyFragment(legacy('/my-account/payment-methods/', 'si'), context({ page: 'add-payment-method' }))).toEqual({ ok: true, redirect: '/my-account/payment-methods/' });
  });

  it('stays, with nothing shown, for any other status', async () => {
    const { sent } = stubShop(() => jsonResponse({}));
    stripe.handleNextAction.mockResolvedValueOnce({ paymentIntent: { id: 'pi_7', status: 'processing' } });
    expect(await confirmLegacyFragment(legacy(), context())).toEqual(STAY);
    expect(sent).toHaveLength(0);
  });

  it('shows the provider’s message on a failure, then fetches the return URL with the ajax flag', async () => {
    const { sent, fetchMock } = stubShop(() => new Response('ok'));
    stripe.handleNextAction.mockResolvedValueOnce({ error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } });
    expect(await confirmLegacyFragment(legacy(), context())).toEqual({ ok: false, message: 'The card was declined.', redirect: null });
    expect(sent.map((request) => [request.method, request.url])).toEqual([['GET', `${RECEIVED}&is_ajax`]]);
    expect(fetchMock.mock.calls[0]![1]).toMatchObject({ credentials: 'same-origin' });
  });

  it('ignores the flagged fetch failing', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    stripe.handleNextAction.mockResolvedValueOnce({ error: { type: 'invalid_request_error', message: 'Authentication failed.' } });
    expect(await confirmLegacyFragment(legacy('/checkout/order-received/12/'), context())).toEqual({ ok: false, message: 'Authentication failed.', redirect: null });
    expect(fetch).toHaveBeenCalledWith(`${origin}/checkout/order-received/12/?is_ajax`, { credentials: 'same-origin' });
  });

  it('shows the shop’s generic message for a fault in the page', async () => {
    stubShop(() => new Response('ok'));
    expect(await confirmLegacyFragment(legacy(), context({ provider: async () => null }))).toEqual({ ok: false, message: pageSettings.genericErrorMessage, redirect: null });
  });

  it('neither follows nor fetches a return URL of another site', async () => {
    const { sent } = stubShop(() => new Response('ok'));
    expect(await confirmLegacyFragment(legacy('https://evil.test/collect'), context())).toEqual(STAY);
    expect(stripe.handleNextAction).not.toHaveBeenCalled();
    expect(sent).toHaveLength(0);
  });

  it('flags a return URL with or without a query', () => {
    expect(withAjaxFlag('/checkout/order-received/12/?key=k#x')).toBe(`${origin}/checkout/order-received/12/?key=k&is_ajax`);
    expect(withAjaxFlag('/checkout/order-received/12/')).toBe(`${origin}/checkout/order-received/12/?is_ajax`);
  });
});

describe('any return fragment', () => {
  it('is handled by its kind’s handler, taken out of the address first', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: true, data: { return_url: '/thanks' } }));
    const hash = `#wc-stripe-confirm-pi:12:pi_3_secret_a:N1`;
    window.history.replaceState(null, '', `/checkout/${hash}`);
    const outcome = await handleReturnFragment(parsed('confirm', hash), context());
    expect(window.location.hash).toBe('');
    expect(stripe.handleNextAction).toHaveBeenCalledWith({ clientSecret: 'pi_3_secret_a' });
    expect(fields(sent[0]!)).toMatchObject({ order_id: '12', _ajax_nonce: 'N1' });
    expect(outcome).toEqual({ ok: true, redirect: '/thanks' });
    expect(await handleReturnFragment(voucher('oxxo'), context())).toMatchObject({ ok: true });
    expect(stripe.confirmOxxoPayment).toHaveBeenCalled();
  });

  it('confirms 3-D Secure for an order’s own page with that order', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: true, data: { return_url: '/thanks' } }));
    await handleReturnFragment(parsed('confirm', '#wc-stripe-confirm-pi:12:pi_3_secret_a:N1'), context({ page: 'order-pay', settings: { orderId: 40 } }));
    expect(fields(sent[0]!)).toMatchObject({ order_id: '40' });
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetNonce } from '@/lib/api-client';
import fixture from '@/test/fixtures/payments-page-settings.json';
import { stubShop, type SentRequest } from '@/test/fetch-stub';
import { jsonResponse } from '@/test/render';
import { createAndConfirmSetupIntent } from './create-and-confirm-setup-intent';
import { createPaymentIntent } from './create-payment-intent';
import { deletePaymentMethod } from './delete-payment-method';
import { getPageSettings, pageSettingsQueryKey, type PaymentPageSettings } from './get-page-settings';
import { getSavedPaymentMethods } from './get-saved-payment-methods';
import { initSetupIntent } from './init-setup-intent';
import { saveAppearance } from './save-appearance';
import { setDefaultPaymentMethod } from './set-default-payment-method';
import { updateFailedOrder } from './update-failed-order';
import { updateOrderStatus } from './update-order-status';
import { updatePaymentIntent } from './update-payment-intent';

const pageSettings = fixture as unknown as PaymentPageSettings;
const fields = (request: SentRequest) => Object.fromEntries(new URLSearchParams(request.body));

describe('the card gateway’s calls', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the page settings of each payment page', async () => {
    const { sent } = stubShop(() => jsonResponse(fixture));
    await getPageSettings({ context: 'checkout' });
    await getPageSettings({ context: 'order-pay', orderId: 12, orderKey: 'wc_order_abc' });
    await getPageSettings({ context: 'change-payment', orderId: 12, orderKey: 'wc_order_abc' });
    await getPageSettings({ context: 'add-payment-method' });
    expect(sent.map((request) => request.url)).toEqual([
      '/wp-json/ferroshop/v1/payments/page-settings?context=checkout',
      '/wp-json/ferroshop/v1/payments/page-settings?context=order-pay&order_id=12&key=wc_order_abc',
      '/wp-json/ferroshop/v1/payments/page-settings?context=change-payment&order_id=12&key=wc_order_abc',
      '/wp-json/ferroshop/v1/payments/page-settings?context=add-payment-method',
    ]);
  });

  it('keys the page settings on the account, since their nonces belong to the session', () => {
    expect(pageSettingsQueryKey({ context: 'checkout' }, 0)).not.toEqual(pageSettingsQueryKey({ context: 'checkout' }, 7));
    expect(pageSettingsQueryKey({ context: 'order-pay', orderId: 12, orderKey: 'k' }, 7)).toEqual(['payments', 'page-settings', 7, 'order-pay', '12', 'k']);
  });

  it('creates a setup intent and a payment intent with their nonces', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: true, data: { id: 'seti_1', client_secret: 'seti_1_secret_2' } }));
    expect(await initSetupIntent(pageSettings, 'card')).toEqual({ id: 'seti_1', client_secret: 'seti_1_secret_2' });
    await createPaymentIntent(pageSettings, 12, 'card');
    expect(sent[0]!.url).toBe('/?wc-ajax=wc_stripe_init_setup_intent');
    expect(sent[0]!.method).toBe('POST');
    expect(sent[0]!.headers.get('Content-Type')).toContain('application/x-www-form-urlencoded');
    expect(fields(sent[0]!)).toEqual({ payment_method_type: 'card', _ajax_nonce: 'n-create-si' });
    expect(sent[1]!.url).toBe('/?wc-ajax=wc_stripe_create_payment_intent');
    expect(fields(sent[1]!)).toEqual({ stripe_order_id: '12', payment_method_type: 'card', _ajax_nonce: 'n-create-pi' });
  });

  it('creates and confirms a setup intent through the wp ajax address', async () => {
    const data = { status: 'succeeded', next_action: null, payment_type: 'card', return_url: '', client_secret: 'seti_1_secret_2', id: 'seti_1' };
    const { sent } = stubShop(() => jsonResponse({ success: true, data }));
    expect(await createAndConfirmSetupIntent(pageSettings, { paymentMethodId: 'pm_1', paymentMethodType: 'card', updateAllSubscriptions: true })).toEqual(data);
    expect(sent[0]!.url).toBe('/wp-admin/admin-ajax.php');
    expect(fields(sent[0]!)).toEqual({
      action: 'wc_stripe_create_and_confirm_setup_intent',
      'wc-stripe-payment-method': 'pm_1',
      'wc-stripe-payment-type': 'card',
      update_all_subscription_payment_methods: 'true',
      _ajax_nonce: 'n-create-confirm-si',
    });
  });

  it('updates a payment intent, and never a setup intent', async () => {
    const { sent } = stubShop(() => jsonResponse({ result: 'success' }));
    expect(await updatePaymentIntent(pageSettings, { orderId: 12, intentId: 'seti_1', savePaymentMethod: true, selectedType: 'card' })).toBe(false);
    expect(sent).toHaveLength(0);
    expect(await updatePaymentIntent(pageSettings, { orderId: 12, intentId: 'pi_1', savePaymentMethod: true, selectedType: 'card' })).toBe(true);
    expect(sent[0]!.url).toBe('/?wc-ajax=wc_stripe_update_payment_intent');
    expect(fields(sent[0]!)).toEqual({ stripe_order_id: '12', wc_payment_intent_id: 'pi_1', save_payment_method: 'yes', selected_upe_payment_type: 'card', _ajax_nonce: 'n-update-pi' });
  });

  it('reads an update refused with messages', async () => {
    stubShop(() => jsonResponse({ result: 'failure', messages: '<ul class="woocommerce-error"><li>Order not found.</li></ul>' }));
    await expect(updatePaymentIntent(pageSettings, { orderId: 12, intentId: 'pi_1', savePaymentMethod: false, selectedType: 'card' })).rejects.toThrow('Order not found.');
  });

  it('reports a confirmed intent with the fragment’s nonce, or the change of payment method', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: true, data: { return_url: '/checkout/order-received/12/?key=wc_order_abc' } }));
    const update = { orderId: 12, intentId: 'pi_1', paymentMethodId: 'pm_1', nonce: 'frag-nonce', changingPayment: false };
    expect(await updateOrderStatus(pageSettings, update)).toBe('/checkout/order-received/12/?key=wc_order_abc');
    await updateOrderStatus(pageSettings, { ...update, changingPayment: true });
    expect(sent[0]!.url).toBe('/?wc-ajax=wc_stripe_update_order_status');
    expect(fields(sent[0]!)).toEqual({ order_id: '12', intent_id: 'pi_1', payment_method_id: 'pm_1', _ajax_nonce: 'frag-nonce' });
    expect(sent[1]!.url).toBe('/?wc-ajax=wc_stripe_confirm_change_payment');
  });

  it('reads a refusal as the shop’s message and code', async () => {
    stubShop(() => jsonResponse({ success: false, data: { error: { message: 'The order could not be updated.', code: 'order_error' } } }, { status: 400 }));
    await expect(updateOrderStatus(pageSettings, { orderId: 12, intentId: 'pi_1', paymentMethodId: '', nonce: 'n', changingPayment: false })).rejects.toMatchObject({
      message: 'The order could not be updated.',
      code: 'order_error',
    });
  });

  it('ignores a failure to report a failed order', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: false }, { status: 500 }));
    await expect(updateFailedOrder(pageSettings, 'pi_1', 12)).resolves.toBeUndefined();
    expect(sent[0]!.url).toBe('/?wc-ajax=wc_stripe_update_failed_order');
    expect(fields(sent[0]!)).toEqual({ intent_id: 'pi_1', order_id: '12', _ajax_nonce: 'n-failed' });
  });

  it('saves the appearance as JSON text', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: true }));
    expect(await saveAppearance(pageSettings, { theme: 'stripe', variables: { colorText: 'rgb(0, 0, 0)' } })).toBe(true);
    expect(sent[0]!.url).toBe('/?wc-ajax=wc_stripe_save_appearance');
    expect(fields(sent[0]!)).toEqual({
      appearance: '{"theme":"stripe","variables":{"colorText":"rgb(0, 0, 0)"}}',
      is_block_checkout: 'false',
      theme_name: 'ferroshop',
      _ajax_nonce: 'n-appearance',
    });
  });

  describe('when the request itself fails', () => {
    const call = () => initSetupIntent(pageSettings, 'card');

    it('says a timeout occurred', async () => {
      vi.stubGlobal('fetch', vi.fn(async (_url: string, init: RequestInit) => {
        Object.defineProperty(init.signal!, 'aborted', { value: true });
        throw new DOMException('The operation timed out.', 'TimeoutError');
      }));
      await expect(call()).rejects.toThrow('A timeout occurred while connecting to the server. Please try again.');
    });

    it('says the connection was aborted', async () => {
      vi.stubGlobal('fetch', vi.fn(async (_url: string, init: RequestInit) => {
        Object.defineProperty(init.signal!, 'aborted', { value: true });
        throw new DOMException('The user aborted a request.', 'AbortError');
      }));
      await expect(call()).rejects.toThrow('The connection to the server was aborted. Please try again.');
    });

    it('says an error occurred for anything else', async () => {
      vi.stubGlobal('fetch', vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }));
      await expect(call()).rejects.toThrow('An error occurred while connecting to the server. Please try again.');
      stubShop(() => new Response('<html>Bad gateway</html>', { status: 502 }));
      await expect(call()).rejects.toThrow('An error occurred while connecting to the server. Please try again.');
    });
  });
});

describe('the account’s saved methods', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
  });

  it('lists them, makes one the default and deletes one, with the Store API nonce', async () => {
    const list = [{ id: 7, gateway: 'stripe', type: 'card', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, is_default: true }];
    const { sent } = stubShop((request) => (request.method === 'GET' && request.url.includes('/cart') ? jsonResponse({}, { headers: { Nonce: 'n1' } }) : jsonResponse(list)));
    expect(await getSavedPaymentMethods()).toEqual(list);
    expect(await setDefaultPaymentMethod(7)).toEqual(list);
    expect(await deletePaymentMethod(7)).toEqual(list);
    const posts = sent.filter((request) => request.method === 'POST');
    expect(sent[0]!.url).toBe('/wp-json/ferroshop/v1/account/payment-methods');
    expect(posts.map((request) => request.url)).toEqual(['/wp-json/ferroshop/v1/account/payment-methods/7/default', '/wp-json/ferroshop/v1/account/payment-methods/7/delete']);
    expect(posts[0]!.headers.get('Nonce')).toBe('n1');
  });
});

import type { Stripe } from '@stripe/stripe-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeStripe, type FakeStripe } from '@/test/fake-stripe';
import { stubShop } from '@/test/fetch-stub';
import { jsonResponse } from '@/test/render';
import { shopperSession, tokenSession } from '../api/express-session';
import type { ExpressHttp, PlacedExpressOrder } from '../api/express-calls';
import type { ExpressParams } from '../api/get-express-params';
import { completeExpressPayment } from './express-completion';

const params = { ajax_url: '/?wc-ajax=%%endpoint%%', nonce: { update_failed_order: 'FAILED1' } } as unknown as ExpressParams;
const placed = (redirect: string): PlacedExpressOrder => ({ order_id: 41, order_key: 'wc_order_abc', status: 'pending', payment_result: { payment_status: 'success', redirect_url: redirect } });
const fields = (body: string) => Object.fromEntries(new URLSearchParams(body));

let fake: FakeStripe;
beforeEach(() => {
  fake = fakeStripe();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('paying an express order', () => {
  it('goes on to the thank-you page of a paid order', async () => {
    const http: ExpressHttp = { params, session: tokenSession('TOKEN-1') };
    expect(await completeExpressPayment(http, fake.stripe as unknown as Stripe, placed('/checkout/order-received/41/?key=wc_order_abc'))).toEqual({
      ok: true,
      redirect: '/checkout/order-received/41/?key=wc_order_abc',
    });
  });

  it('confirms 3-D Secure on the product page’s own cart, reporting it with that cart’s token', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: true, data: { return_url: '/checkout/order-received/41/?key=wc_order_abc' } }));
    fake.stripe.handleNextAction.mockResolvedValueOnce({ paymentIntent: { id: 'pi_3ds', status: 'succeeded' } });
    const http: ExpressHttp = { params, session: tokenSession('TOKEN-1') };
    const outcome = await completeExpressPayment(http, fake.stripe as unknown as Stripe, placed('#wc-stripe-confirm-pi:41:pi_3ds_secret_abc:NONCE1'));
    expect(fake.stripe.handleNextAction).toHaveBeenCalledWith({ clientSecret: 'pi_3ds_secret_abc' });
    expect(sent[0]!.url).toBe('/?wc-ajax=wc_stripe_update_order_status');
    expect(sent[0]!.headers.get('Cart-Token')).toBe('TOKEN-1');
    expect(fields(sent[0]!.body)).toEqual({ order_id: '41', intent_id: 'pi_3ds', payment_method_id: '', _ajax_nonce: 'NONCE1' });
    expect(outcome).toEqual({ ok: true, redirect: '/checkout/order-received/41/?key=wc_order_abc' });
  });

  it('shows a failed challenge on the product page', async () => {
    const { sent } = stubShop(() => undefined);
    fake.stripe.handleNextAction.mockResolvedValueOnce({ error: { type: 'card_error', code: 'payment_intent_authentication_failure', message: 'We are unable to authenticate your payment method.' } });
    const http: ExpressHttp = { params, session: tokenSession('TOKEN-1') };
    expect(await completeExpressPayment(http, fake.stripe as unknown as Stripe, placed('#wc-stripe-confirm-pi:41:pi_3ds_secret_abc:NONCE1'))).toEqual({
      ok: false,
      message: 'We are unable to authenticate your payment method.',
      redirect: null,
    });
    expect(sent).toEqual([]);
  });

  it('confirms 3-D Secure on the shopper’s cart as the checkout does, with the order’s page to try again from', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: true, data: {} }));
    fake.stripe.handleNextAction.mockResolvedValueOnce({ error: { type: 'card_error', message: 'We are unable to authenticate your payment method.' } });
    const http: ExpressHttp = { params, session: shopperSession() };
    expect(await completeExpressPayment(http, fake.stripe as unknown as Stripe, placed('/checkout/#wc-stripe-confirm-pi:41:pi_3ds_secret_abc:NONCE1'))).toEqual({
      ok: false,
      message: 'We are unable to authenticate your payment method.',
      redirect: '/checkout/order-pay/41?pay_for_order=true&key=wc_order_abc',
    });
    // The failure is reported with the params' failed-order nonce.
    const report = sent.find((request) => request.url.includes('wc_stripe_update_failed_order'));
    expect(report && new URLSearchParams(report.body).get('_ajax_nonce')).toBe('FAILED1');
  });
});

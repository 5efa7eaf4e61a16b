import { act, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetNonce } from '@/lib/api-client';
import { leavePage } from '@/lib/leave-page';
import { fakeStripe } from '@/test/fake-stripe';
import { stubShop, type SentRequest } from '@/test/fetch-stub';
import fixture from '@/test/fixtures/payments-page-settings.json';
import { jsonResponse, renderWithApp } from '@/test/render';
import type { PageSettingsScope } from '../api/get-page-settings';
import { PaymentReturnStatus } from '../components/payment-return-status';
import { usePaymentReturn } from './use-payment-return';

vi.mock('@/lib/leave-page', () => ({ leavePage: vi.fn() }));

const origin = window.location.origin;
const RECEIVED = `${origin}/checkout/order-received/12/?key=wc_order_abc`;
const PROBLEM = 'There was a problem processing the payment. Please refresh the page to try again.';
const voucherHash = (order = 12, back = RECEIVED) => `#wc-stripe-voucher-${order}:oxxo:pi_5_secret_v:${encodeURIComponent(back)}`;
const walletHash = `#wc-stripe-wallet-12:wechat_pay:payment_intent:pi_8_secret_w:${encodeURIComponent(RECEIVED)}:f00d`;

/** The provider stand-in, with a voucher and a wallet; the page's script is read once per key. */
function provider() {
  const fake = fakeStripe();
  return Object.assign(fake.stripe, {
    confirmOxxoPayment: vi.fn(async (_secret: string, _data?: unknown): Promise<unknown> => ({ paymentIntent: { id: 'pi_5', status: 'requires_action' } })),
    confirmWechatPayPayment: vi.fn(async (_secret: string, _data?: unknown): Promise<unknown> => ({ paymentIntent: { id: 'pi_8', status: 'requires_action' } })),
  });
}

let stripe: ReturnType<typeof provider>;
let keys = 0;
const StripeDouble = Object.assign(
  vi.fn(() => stripe),
  { version: 'endive' },
);

function shop(settings: Record<string, unknown> = {}, route: (request: SentRequest) => Response | undefined = () => undefined) {
  keys += 1;
  const pageSettings = { ...fixture, key: `pk_test_return_${keys}`, orderReceivedURL: `${origin}/checkout/order-received/`, ...settings };
  return stubShop((request) => route(request) ?? (request.url.includes('/payments/page-settings') ? jsonResponse(pageSettings) : undefined));
}

function Page({ scope, enabled = true, onLeave }: { scope: PageSettingsScope; enabled?: boolean; onLeave?: () => void }) {
  const state = usePaymentReturn(scope, { enabled, onLeave });
  return (
    <form name="checkout">
      <PaymentReturnStatus state={state} />
    </form>
  );
}

const CHECKOUT = { context: 'checkout' } as const;

function openPage(address: string, props: Partial<Parameters<typeof Page>[0]> = {}) {
  window.history.replaceState({ idx: 0 }, '', address);
  const url = new URL(address, origin);
  return renderWithApp(<Page scope={CHECKOUT} {...props} />, { path: url.pathname + url.search });
}

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

describe('a payment page opened with a return fragment', () => {
  beforeEach(() => {
    stripe = provider();
    resetNonce();
    vi.unstubAllGlobals();
    vi.mocked(leavePage).mockClear();
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    (window as unknown as { Stripe: unknown }).Stripe = StripeDouble;
  });
  afterEach(() => {
    delete (window as unknown as { Stripe?: unknown }).Stripe;
    window.history.replaceState(null, '', '/');
  });

  it('looks at nothing more than its address without one', async () => {
    const { fetchMock } = shop();
    openPage('/checkout/#payment');
    await settle();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(StripeDouble).not.toHaveBeenCalled();
    expect(screen.queryByTestId('payment-return-busy')).toBeNull();
    expect(window.location.hash).toBe('#payment');
  });

  it('shows a voucher, blocked meanwhile, then goes on to the order', async () => {
    shop();
    let close!: () => void;
    stripe.confirmOxxoPayment.mockImplementationOnce(() => new Promise((resolve) => (close = () => resolve({ paymentIntent: { id: 'pi_5', status: 'requires_action' } }))));
    const onLeave = vi.fn();
    const { router } = openPage(`/checkout/?utm=x${voucherHash()}`, { onLeave });
    // Out of the address at once, path and query kept.
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/checkout/?utm=x');
    expect(screen.getByTestId('payment-return-busy').className).toContain('processing');
    expect(screen.getByText('Please wait...')).toBeTruthy();
    await waitFor(() => expect(stripe.confirmOxxoPayment).toHaveBeenCalledWith('pi_5_secret_v', {}));
    close();
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/order-received/12/'));
    expect(router.state.location.search).toBe('?key=wc_order_abc');
    expect(onLeave).toHaveBeenCalledOnce();
    expect(screen.queryByTestId('payment-return-busy')).toBeNull();
  });

  it('handles a fragment the page is navigated to (hashchange)', async () => {
    shop();
    openPage('/checkout/');
    await settle();
    expect(stripe.confirmWechatPayPayment).not.toHaveBeenCalled();
    window.history.replaceState(null, '', `/checkout/${walletHash}`);
    act(() => {
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(screen.getByTestId('payment-return-busy')).toBeTruthy();
    await waitFor(() => expect(stripe.confirmWechatPayPayment).toHaveBeenCalledOnce());
    // The dialog was closed without paying: the page is the shopper's again, nothing shown.
    await waitFor(() => expect(screen.queryByTestId('payment-return-busy')).toBeNull());
    expect(screen.queryByTestId('payment-return-notice')).toBeNull();
    expect(window.location.hash).toBe('');
  });

  it('shows what went wrong in the notice area and raises it as a checkout error', async () => {
    shop({ orderReceivedURL: '' });
    const raised = vi.fn();
    document.addEventListener('checkout_error', raised);
    openPage(`/checkout/${voucherHash(12, 'https://evil.test/')}`);
    expect(await screen.findByText(PROBLEM)).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain(PROBLEM);
    expect(screen.queryByTestId('payment-return-busy')).toBeNull();
    await waitFor(() => expect(raised).toHaveBeenCalledOnce());
    expect((raised.mock.calls[0]![0] as CustomEvent).detail).toEqual({ message: PROBLEM });
    expect((raised.mock.calls[0]![0] as Event).target).toBe(document.querySelector('form[name="checkout"]'));
    document.removeEventListener('checkout_error', raised);
  });

  it('ignores, on the order-pay page, a voucher of another order', async () => {
    shop({ orderId: 12 });
    openPage(`/checkout/order-pay/12/?key=k${voucherHash(13)}`, { scope: { context: 'order-pay', orderId: '12', orderKey: 'k' } });
    await waitFor(() => expect(screen.queryByTestId('payment-return-busy')).toBeNull());
    await settle();
    expect(stripe.confirmOxxoPayment).not.toHaveBeenCalled();
    expect(screen.queryByTestId('payment-return-notice')).toBeNull();
  });

  it('goes to another site’s page by leaving the app', async () => {
    shop({}, (request) => (request.url.includes('confirm_change_payment') ? jsonResponse({ success: true, data: { return_url: 'https://wallet.test/done' } }) : undefined));
    stripe.confirmWechatPayPayment.mockResolvedValueOnce({ paymentIntent: { id: 'pi_8', status: 'succeeded', payment_method: 'pm_w' } });
    openPage(`/checkout/${walletHash}`);
    await waitFor(() => expect(leavePage).toHaveBeenCalledWith('https://wallet.test/done'));
    // Blocked until the browser has left.
    expect(screen.getByTestId('payment-return-busy')).toBeTruthy();
  });

  it('reports an older card confirmation that failed with the ajax flag', async () => {
    const { sent } = shop({}, (request) => (request.url.includes('is_ajax') ? new Response('') : undefined));
    stripe.handleNextAction.mockResolvedValueOnce({ error: { type: 'card_error', code: 'card_declined', message: 'Declined' } });
    openPage(`/checkout/#confirm-pi-pi_7_secret_k:${encodeURIComponent(RECEIVED)}`);
    expect(await screen.findByText('The card was declined.')).toBeTruthy();
    await waitFor(() => expect(sent.map((request) => request.url)).toContain(`${RECEIVED}&is_ajax`));
  });

  it('drops a fragment it cannot read, and does nothing else', async () => {
    const { fetchMock } = shop();
    openPage('/checkout/#wc-stripe-voucher-12:oxxo:pi_5_secret_v:%ZZ');
    await settle();
    expect(window.location.hash).toBe('');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByTestId('payment-return-busy')).toBeNull();
  });

  it('does nothing where the shop takes no payment of the gateway’s', async () => {
    const { fetchMock } = shop();
    openPage(`/checkout/${voucherHash()}`, { enabled: false });
    await settle();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(window.location.hash).not.toBe('');
  });
});

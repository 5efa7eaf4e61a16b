import { screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, settings } from '@/config/settings';
import { resetNonce } from '@/lib/api-client';
import { fireEvent } from '@/test/events';
import { fakeStripe, type FakeStripe } from '@/test/fake-stripe';
import { stubShop, type SentRequest } from '@/test/fetch-stub';
import fixture from '@/test/fixtures/payments-page-settings.json';
import { jsonResponse, renderWithApp } from '@/test/render';
import { AddPaymentMethodForm } from './add-payment-method-form';

let fake: FakeStripe;
const StripeDouble = Object.assign(
  vi.fn(() => fake.stripe),
  { version: 'endive' },
);
let keys = 0;

function stub(setup: (request: SentRequest) => Response, overrides: object = {}) {
  keys += 1;
  const pageSettings = { ...fixture, key: `pk_test_add_${keys}`, appearance: { theme: 'stripe' }, isAddPaymentMethod: true, isCheckout: false, cartTotal: 0, isLoggedIn: true, ...overrides };
  return stubShop((request) => {
    if (request.url.includes('/payments/page-settings')) return jsonResponse(pageSettings);
    if (request.url.includes('admin-ajax')) return setup(request);
    return undefined;
  });
}

describe('adding a payment method', () => {
  beforeEach(() => {
    fake = fakeStripe();
    resetNonce();
    vi.unstubAllGlobals();
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    (window as unknown as { Stripe: unknown }).Stripe = StripeDouble;
    settings.checkout.gateways = [
      { id: 'stripe', title: 'Credit / Debit Card', description: '', order_button_text: null },
      { id: 'bacs', title: 'Direct bank transfer', description: '', order_button_text: null },
    ];
  });
  afterEach(() => {
    delete (window as unknown as { Stripe?: unknown }).Stripe;
    settings.checkout.gateways = DEFAULT_SETTINGS.checkout.gateways;
  });

  it('saves the card through a setup intent and goes back to the list with the notice', async () => {
    const { sent } = stub(() => jsonResponse({ success: true, data: { id: 'seti_1', status: 'succeeded', next_action: null, payment_type: 'card', return_url: '', client_secret: 'seti_1_secret_2' } }));
    const { router } = renderWithApp(<AddPaymentMethodForm />, { path: '/my-account/add-payment-method' });
    const form = await waitFor(() => {
      const found = document.getElementById('add_payment_method');
      expect(found).not.toBeNull();
      return found!;
    });
    // Only the methods that can be kept are offered.
    expect(screen.queryByLabelText('Direct bank transfer')).toBeNull();
    await waitFor(() => expect(fake.element.mount).toHaveBeenCalled());
    expect(fake.elements.options).toMatchObject({ mode: 'setup' });
    await waitFor(() => expect(screen.getByLabelText('Card number')).toBeTruthy());
    fireEvent.submit(form);
    await waitFor(() => expect(router.state.location.pathname).toBe('/my-account/payment-methods/'));
    expect(router.state.location.state).toEqual({ notice: 'Payment method successfully added.' });
    expect(Object.fromEntries(new URLSearchParams(sent.find((request) => request.url.includes('admin-ajax'))!.body))).toMatchObject({
      action: 'wc_stripe_create_and_confirm_setup_intent',
      'wc-stripe-payment-method': 'pm_new',
    });
  });

  it('shows a refusal at the top of the form', async () => {
    stub(() => jsonResponse({ success: false, data: { error: { message: 'Your card was declined.' } } }, { status: 400 }));
    renderWithApp(<AddPaymentMethodForm />, { path: '/my-account/add-payment-method' });
    await waitFor(() => expect(fake.element.mount).toHaveBeenCalled());
    await waitFor(() => expect(screen.getByLabelText('Card number')).toBeTruthy());
    fireEvent.submit(document.getElementById('add_payment_method')!);
    expect(await screen.findByText('Your card was declined.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add payment method' }).getAttribute('aria-busy')).toBe('false');
  });

  it('says so when the shop cannot keep cards', async () => {
    stub(() => jsonResponse({}), { enabled: false, key: undefined });
    renderWithApp(<AddPaymentMethodForm />);
    expect(await screen.findByText('New payment methods can only be added during checkout. Please contact us if you require assistance.')).toBeTruthy();
  });
});

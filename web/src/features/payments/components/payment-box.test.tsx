import { render, screen, waitFor } from '@testing-library/preact';
import { renderToString } from 'preact-render-to-string';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetNonce } from '@/lib/api-client';
import { fireEvent } from '@/test/events';
import { fakeStripe, type FakeStripe } from '@/test/fake-stripe';
import { stubShop, type SentRequest } from '@/test/fetch-stub';
import fixture from '@/test/fixtures/payments-page-settings.json';
import { jsonResponse } from '@/test/render';
import type { PaymentSubmission } from '@/types/payment-binding';
import type { PaymentPageSettings } from '../api/get-page-settings';
import { PaymentBox, type PaymentBoxOwnProps } from './payment-box';

// The provider's script is read once per page; each test gets its own instance through a new key.
let fake: FakeStripe;
let keys = 0;
const StripeDouble = Object.assign(
  vi.fn(() => fake.stripe),
  { version: 'endive' },
);

const visa = { id: 7, gateway: 'stripe', type: 'card', brand: 'visa', last4: '4242', exp_month: 3, exp_year: 2030, is_default: true };

function settingsWith(overrides: Partial<PaymentPageSettings> = {}): PaymentPageSettings {
  keys += 1;
  // A saved appearance spares most tests the measuring (tested on its own below).
  return { ...(fixture as unknown as PaymentPageSettings), key: `pk_test_${keys}`, appearance: { theme: 'stripe' }, ...overrides };
}

function renderBox(props: Partial<PaymentBoxOwnProps> = {}) {
  const submissions = new Map<string, PaymentSubmission | null>();
  const onSubmission = vi.fn((id: string, submission: PaymentSubmission | null) => submissions.set(id, submission));
  const all: PaymentBoxOwnProps = {
    pageSettings: settingsWith(),
    page: 'checkout',
    gatewayId: 'stripe',
    selected: true,
    billing: { first_name: 'Ada', last_name: 'Lovelace', country: 'GB' },
    amount: null,
    createAccount: false,
    disabled: false,
    onSubmission,
    ...props,
  };
  const result = render(<PaymentBox {...all} />);
  return { ...result, submission: () => submissions.get(all.gatewayId)!, props: all };
}

const elementMounted = () => waitFor(() => expect(fake.element.mount).toHaveBeenCalled());

describe('the card payment box', () => {
  beforeEach(() => {
    fake = fakeStripe();
    resetNonce();
    vi.unstubAllGlobals();
    (window as unknown as { Stripe: unknown }).Stripe = StripeDouble;
  });
  afterEach(() => {
    delete (window as unknown as { Stripe?: unknown }).Stripe;
  });

  it('draws the Payment Element for a deferred intent once chosen', async () => {
    renderBox({ amount: 2935 });
    await elementMounted();
    expect(StripeDouble).toHaveBeenLastCalledWith(expect.stringMatching(/^pk_test_/), { locale: 'en', apiVersion: '2024-06-20' });
    expect(fake.elements.options).toMatchObject({
      mode: 'payment',
      amount: 2935,
      currency: 'gbp',
      paymentMethodCreation: 'manual',
      paymentMethodTypes: ['card'],
      appearance: { theme: 'stripe' },
      locale: 'en',
    });
    expect(fake.elements.create).toHaveBeenCalledWith('payment', {
      layout: { type: 'accordion', defaultCollapsed: false, radios: 'never', spacedAccordionItems: false },
      wallets: { applePay: 'never', googlePay: 'never' },
      terms: { card: 'never' },
      fields: {
        billingDetails: {
          name: 'never',
          email: 'never',
          phone: 'never',
          address: { country: 'never', line1: 'never', line2: 'never', city: 'never', state: 'never', postalCode: 'never' },
        },
      },
    });
    expect(screen.getByLabelText('Card number')).toBeTruthy();
  });

  it('loads nothing of the provider until the box is chosen', async () => {
    const { rerender, props } = renderBox({ selected: false });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.stripe.elements).not.toHaveBeenCalled();
    rerender(<PaymentBox {...props} selected />);
    await elementMounted();
  });

  it('sets up instead of paying when the total is below 1', async () => {
    renderBox({ amount: 0 });
    await elementMounted();
    expect(fake.elements.options).toMatchObject({ mode: 'setup', amount: 0 });
  });

  it('leaves the billing fields to the element away from the checkout', async () => {
    renderBox({ page: 'order-pay' });
    await elementMounted();
    expect(fake.elements.create.mock.calls[0]![1]).not.toHaveProperty('fields');
  });

  it('offers saved cards above the element, the default one chosen', async () => {
    renderBox({ pageSettings: settingsWith({ isLoggedIn: true, savedPaymentMethods: [visa, { ...visa, id: 8, last4: '1881', is_default: false }] }) });
    const saved = screen.getByLabelText('Visa ending in 4242 (expires 03/30)') as HTMLInputElement;
    expect(saved.checked).toBe(true);
    expect((screen.getByLabelText('Visa ending in 1881 (expires 03/30)') as HTMLInputElement).checked).toBe(false);
    // A saved card needs no new one, nor the save option.
    expect(screen.queryByLabelText('Save payment information to my account for future purchases.')).toBeNull();
    fireEvent.click(screen.getByLabelText('Use a new payment method'));
    await elementMounted();
    expect(screen.getByLabelText('Save payment information to my account for future purchases.')).toBeTruthy();
  });

  it('pays with the chosen saved card', async () => {
    const { submission } = renderBox({ pageSettings: settingsWith({ isLoggedIn: true, savedPaymentMethods: [visa] }) });
    const prepared = await submission()!.prepare();
    expect(prepared).toMatchObject({ ok: true, paymentData: expect.arrayContaining([{ key: 'wc-stripe-payment-token', value: '7' }]) });
  });

  it('shows the save option to guests only when an account is being created', async () => {
    const guest = settingsWith({ isLoggedIn: false, isSignupOnCheckoutAllowed: true });
    const { rerender, props } = renderBox({ pageSettings: guest, createAccount: false });
    await elementMounted();
    expect(screen.queryByLabelText('Save payment information to my account for future purchases.')).toBeNull();
    rerender(<PaymentBox {...props} createAccount />);
    expect(screen.getByLabelText('Save payment information to my account for future purchases.')).toBeTruthy();
  });

  it('shows the provider’s terms once the card is to be saved, and sends the choice', async () => {
    const { submission } = renderBox({ pageSettings: settingsWith({ isLoggedIn: true }) });
    await elementMounted();
    fireEvent.click(screen.getByLabelText('Save payment information to my account for future purchases.'));
    await waitFor(() => expect(fake.element.update).toHaveBeenCalledWith({ terms: { card: 'always' } }));
    fake.element.emit('ready');
    await waitFor(async () => {
      const prepared = await submission()!.prepare();
      expect(prepared).toMatchObject({ ok: true, paymentData: expect.arrayContaining([{ key: 'wc-stripe-new-payment-method', value: 'true' }]) });
    });
  });

  it('builds the element again when saving is switched in the one-checkout mode', async () => {
    renderBox({ pageSettings: settingsWith({ isLoggedIn: true, isOCEnabled: true }) });
    await elementMounted();
    expect(fake.stripe.elements).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByLabelText('Save payment information to my account for future purchases.'));
    await waitFor(() => expect(fake.stripe.elements).toHaveBeenCalledTimes(2));
    expect(fake.element.destroy).toHaveBeenCalled();
  });

  it('says the method failed to load inside its box, and then asks for valid details', async () => {
    fake = fakeStripe({ failToLoad: true });
    const { submission } = renderBox();
    expect(await screen.findByText('Failed to load Credit / Debit Card payment method. Please refresh the page and try again.')).toBeTruthy();
    expect(await submission()!.prepare()).toEqual({
      ok: false,
      message: 'Invalid or missing payment details. Please ensure the provided payment method is correctly entered.',
    });
  });

  it('says the same when the provider’s script cannot be loaded', async () => {
    renderBox({ pageSettings: settingsWith({ key: undefined }) });
    expect(await screen.findByText('Failed to load Credit / Debit Card payment method. Please refresh the page and try again.')).toBeTruthy();
  });

  it('creates the payment method from the element once it is ready', async () => {
    const { submission } = renderBox();
    await elementMounted();
    await waitFor(async () => expect(await submission()!.prepare()).toMatchObject({ ok: true }));
    expect(fake.stripe.createPaymentMethod).toHaveBeenCalledWith(expect.objectContaining({ params: { billing_details: expect.objectContaining({ name: 'Ada Lovelace' }) } }));
  });

  it('warns about Cash App’s limit above 200000 minor units', () => {
    const settings = settingsWith({
      paymentMethodsConfig: { cashapp: { title: 'Cash App Pay', countries: ['US'], isReusable: true, showSaveOption: true, gatewayId: 'stripe_cashapp' } },
    });
    const { rerender, props } = renderBox({ gatewayId: 'stripe_cashapp', pageSettings: settings, amount: 250_000 });
    expect(screen.getByText('Please note that, depending on your account and transaction history, Cash App Pay may reject your transaction due to its amount.')).toBeTruthy();
    rerender(<PaymentBox {...props} amount={150_000} />);
    expect(screen.queryByTestId('cash-app-limit-notice')).toBeNull();
  });

  it('asks for a BLIK code for BLIK', () => {
    const settings = settingsWith({ paymentMethodsConfig: { blik: { title: 'BLIK', countries: ['PL'], isReusable: false, gatewayId: 'stripe_blik' } } });
    renderBox({ gatewayId: 'stripe_blik', pageSettings: settings });
    expect(screen.getByLabelText(/BLIK Code/)).toBeTruthy();
  });

  it('measures the shop’s look once and saves it when the settings have none', async () => {
    const { sent } = stubShop(() => jsonResponse({ success: true }));
    renderBox({ pageSettings: settingsWith({ appearance: null }) });
    await elementMounted();
    const appearance = (fake.elements.options as { appearance: { theme: string; variables: Record<string, string>; rules: Record<string, unknown> } }).appearance;
    expect(appearance.theme).toBe('stripe');
    expect(appearance.variables.colorBackground).toBe('rgb(255, 255, 255)');
    expect(Object.keys(appearance.rules)).toContain('.Input--invalid');
    await waitFor(() => expect(sent).toHaveLength(1));
    const saved = Object.fromEntries(new URLSearchParams((sent[0] as SentRequest).body));
    expect(sent[0]!.url).toBe('/?wc-ajax=wc_stripe_save_appearance');
    expect(JSON.parse(saved.appearance!)).toEqual(appearance);
    expect(saved).toMatchObject({ is_block_checkout: 'false', theme_name: 'ferroshop', _ajax_nonce: 'n-appearance' });
    // The probe it measured is gone.
    expect(document.getElementById('wc-stripe-probe-valid')).toBeNull();
  });

  it('keeps the element’s place on the server, with nothing of the element in it', () => {
    const html = renderToString(
      <PaymentBox pageSettings={settingsWith()} page="checkout" gatewayId="stripe" selected billing={{}} amount={null} createAccount={false} disabled={false} onSubmission={() => {}} />,
    );
    expect(html).toContain('class="wc-stripe-upe-element');
    expect(html).toContain('aria-busy="true"');
    expect(html).not.toContain('<input');
    expect(fake.stripe.elements).not.toHaveBeenCalled();
  });
});

import { waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, settings } from '@/config/settings';
import { resetNonce } from '@/lib/api-client';
import { stubShop } from '@/test/fetch-stub';
import fixture from '@/test/fixtures/payments-page-settings.json';
import { jsonResponse, renderWithApp } from '@/test/render';
import type { PaymentBinding } from '@/types/payment-binding';
import { PaymentBox } from '@/features/payments/components/payment-box';
import { PaymentBoxUnavailable } from '@/features/payments/components/payment-box-unavailable';
import { usePaymentBinding } from './payment-binding';
import { loadPaymentBox } from './card-box';

let current: PaymentBinding | undefined;
function Probe() {
  current = usePaymentBinding({ context: 'checkout' });
  return null;
}

const withIdeal = {
  ...fixture,
  paymentMethodsConfig: {
    ...fixture.paymentMethodsConfig,
    ideal: { title: 'iDEAL', description: '', countries: ['NL'], isReusable: false, supportsDeferredIntent: true, showSaveOption: false, gatewayId: 'stripe_ideal' },
  },
};

describe('the payment binding', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
    current = undefined;
  });
  afterEach(() => {
    settings.checkout.gateways = DEFAULT_SETTINGS.checkout.gateways;
  });

  it('is absent, and asks for nothing, when the shop has no card gateway', async () => {
    settings.checkout.gateways = [{ id: 'bacs', title: 'Direct bank transfer', description: '', order_button_text: null }];
    const { fetchMock } = stubShop(() => jsonResponse(fixture));
    renderWithApp(<Probe />);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(current).toBeUndefined();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('offers a method only in its countries once the page settings are in', async () => {
    settings.checkout.gateways = [
      { id: 'stripe', title: 'Credit / Debit Card', description: '', order_button_text: null },
      { id: 'stripe_ideal', title: 'iDEAL', description: '', order_button_text: null },
    ];
    const { sent } = stubShop(() => jsonResponse(withIdeal));
    renderWithApp(<Probe />);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.url).toBe('/wp-json/ferroshop/v1/payments/page-settings?context=checkout');
    await waitFor(() => expect(current!.isAvailable('stripe_ideal', 'DE')).toBe(false));
    expect(current!.isAvailable('stripe_ideal', 'NL')).toBe(true);
    expect(current!.isAvailable('stripe', 'DE')).toBe(true);
    expect(current!.isAvailable('bacs', 'DE')).toBe(true);
    expect(current!.hasBox('stripe')).toBe(true);
    expect(current!.hasBox('bacs')).toBe(false);
    expect(current!.renderBox({ gatewayId: 'bacs', selected: true, billing: {}, amount: null, createAccount: false, disabled: false, onSubmission: () => {} })).toBeNull();
  });

  it('withdraws the card when the shop says the gateway is off', async () => {
    settings.checkout.gateways = [{ id: 'stripe', title: 'Credit / Debit Card', description: '', order_button_text: null }];
    stubShop(() => jsonResponse({ ...fixture, enabled: false, key: undefined }));
    renderWithApp(<Probe />);
    await waitFor(() => expect(current!.isAvailable('stripe', 'GB')).toBe(false));
  });

  it('draws the card box only once its code is loaded, and loads it only for a shop that takes cards', async () => {
    const props = { gatewayId: 'stripe', selected: true, billing: {}, amount: null, createAccount: false, disabled: false, onSubmission: () => {} };
    settings.checkout.gateways = [{ id: 'stripe', title: 'Credit / Debit Card', description: '', order_button_text: null }];
    stubShop(() => jsonResponse(fixture));
    renderWithApp(<Probe />);
    await waitFor(() => expect(current!.isAvailable('stripe', 'GB')).toBe(true));
    // The settings are in (a box would be drawn), but not its code.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((current!.renderBox(props) as { type: unknown }).type).toBe(PaymentBoxUnavailable);
    await loadPaymentBox();
    await waitFor(() => expect((current!.renderBox(props) as { type: unknown }).type).toBe(PaymentBox));
  });
});

import { screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetNonce } from '@/lib/api-client';
import { fireEvent } from '@/test/events';
import { stubShop } from '@/test/fetch-stub';
import { jsonResponse, renderWithApp } from '@/test/render';
import { SavedPaymentMethods } from './saved-payment-methods';

const visa = { id: 7, gateway: 'stripe', type: 'card', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, is_default: true };
const mastercard = { id: 8, gateway: 'stripe', type: 'card', brand: 'mastercard', last4: '4444', exp_month: 1, exp_year: 2031, is_default: false };

describe('the saved payment methods', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
  });

  it('lists each card with its brand, last four digits, expiry and the default', async () => {
    stubShop(() => jsonResponse([visa, mastercard]));
    renderWithApp(<SavedPaymentMethods />, { path: '/my-account/payment-methods' });
    const items = await screen.findAllByTestId('saved-payment-method');
    expect(items.map((item) => item.textContent)).toEqual([
      'Visa ending in 4242Expires 12/30DefaultDelete',
      'Mastercard ending in 4444Expires 01/31Make defaultDelete',
    ]);
    expect(screen.getByRole('link', { name: 'Add payment method' }).getAttribute('href')).toBe('/my-account/add-payment-method');
  });

  it('makes a card the default and deletes one, saying so', async () => {
    const { sent } = stubShop((request) => {
      if (request.url.endsWith('/8/default')) return jsonResponse([{ ...visa, is_default: false }, { ...mastercard, is_default: true }]);
      if (request.url.endsWith('/7/delete')) return jsonResponse([{ ...mastercard, is_default: true }]);
      if (request.url.includes('/cart')) return jsonResponse({}, { headers: { Nonce: 'n1' } });
      return jsonResponse([visa, mastercard]);
    });
    renderWithApp(<SavedPaymentMethods />, { path: '/my-account/payment-methods' });
    fireEvent.click(await screen.findByRole('button', { name: 'Make default: Mastercard ending in 4444' }));
    expect(await screen.findByText('This payment method was successfully set as your default.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete Visa ending in 4242' }));
    expect(await screen.findByText('Payment method deleted.')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('saved-payment-method')).toHaveLength(1));
    expect(sent.filter((request) => request.method === 'POST').map((request) => request.url)).toEqual([
      '/wp-json/ferroshop/v1/account/payment-methods/8/default',
      '/wp-json/ferroshop/v1/account/payment-methods/7/delete',
    ]);
  });

  it('says when there are none', async () => {
    stubShop(() => jsonResponse([]));
    renderWithApp(<SavedPaymentMethods />);
    expect(await screen.findByText('No saved methods found.')).toBeTruthy();
  });
});

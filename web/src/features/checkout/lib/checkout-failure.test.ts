import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { failureNotices, fieldErrorsOf } from './checkout-failure';

const invalid = (params: Record<string, string>) =>
  new ApiError('Invalid parameter(s): billing_address', 'rest_invalid_param', 400, { status: 400, params });

const shown = new Set(['billing_first_name', 'billing_postcode', 'shipping_postcode', 'terms']);

describe('a refused checkout', () => {
  it('links each field on screen to the server message about it, and drops the address summary', () => {
    const error = invalid({
      billing_address: 'The provided postcode / ZIP is not valid',
      billing_postcode: 'The provided postcode / ZIP is not valid',
      billing_first_name: 'First name is required',
    });
    expect(failureNotices(error, shown, null)).toEqual([
      { tone: 'error', text: 'The provided postcode / ZIP is not valid', fieldId: 'billing_postcode' },
      { tone: 'error', text: 'First name is required', fieldId: 'billing_first_name' },
    ]);
  });

  it('leaves out what it says about a shipping address that is the billing one', () => {
    const error = invalid({
      billing_address: 'Bad', billing_postcode: 'Bad postcode', shipping_address: 'Bad', shipping_postcode: 'Bad postcode',
    });
    expect(failureNotices(error, new Set(['billing_postcode']), 'shipping_').map((notice) => notice.fieldId)).toEqual(['billing_postcode']);
  });

  it('shows a parameter that names no field, and any other refusal, as a plain notice', () => {
    expect(failureNotices(invalid({ payment_method: 'payment_method is not one of bacs.' }), shown, null)).toEqual([
      { tone: 'error', text: 'payment_method is not one of bacs.', fieldId: null },
    ]);
    const stock = new ApiError('Sorry, "Beanie" is not in stock.', 'woocommerce_rest_product_out_of_stock', 400);
    expect(failureNotices(stock, shown, null)).toEqual([{ tone: 'error', text: 'Sorry, "Beanie" is not in stock.', fieldId: null }]);
  });

  it('has nothing to say for a transport failure or an unreadable answer', () => {
    expect(failureNotices(new ApiError('offline', 'fetch_error', 0), shown, null)).toEqual([]);
    expect(failureNotices(new ApiError('not json', 'invalid_json', 500), shown, null)).toEqual([]);
    expect(failureNotices(new Error('boom'), shown, null)).toEqual([]);
  });

  it('reads field errors only from rest_invalid_param, only for fields on screen', () => {
    expect(fieldErrorsOf(invalid({ billing_postcode: '<strong>Bad</strong> postcode', billing_city: 'x' }), new Set(['billing_postcode']))).toEqual({
      billing_postcode: 'Bad postcode',
    });
    expect(fieldErrorsOf(new ApiError('x', 'other', 400, { params: { billing_postcode: 'x' } }), shown)).toEqual({});
  });
});

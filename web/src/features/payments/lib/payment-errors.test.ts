import { describe, expect, it } from 'vitest';
import {
  INVALID_DETAILS_MESSAGE,
  loadFailedMessage,
  missingFieldMessage,
  PaymentRequestError,
  paymentErrorMessage,
  requestFailureMessage,
  requestFailureOf,
} from './payment-errors';

const messages = {
  card_declined: 'The card was declined.',
  invalid_number: 'The card number is not a valid credit card number.',
  genericErrorMessage: 'There was a problem processing the payment. Please check your email inbox and refresh the page to try again.',
};

describe('the request-status messages', () => {
  it('words a timeout, an abort and anything else', () => {
    expect(requestFailureMessage('timeout')).toBe('A timeout occurred while connecting to the server. Please try again.');
    expect(requestFailureMessage('abort')).toBe('The connection to the server was aborted. Please try again.');
    expect(requestFailureMessage('error')).toBe('An error occurred while connecting to the server. Please try again.');
  });

  it('reads how a request failed from what was thrown', () => {
    expect(requestFailureOf(new DOMException('late', 'TimeoutError'))).toBe('timeout');
    expect(requestFailureOf(new DOMException('stop', 'AbortError'))).toBe('abort');
    expect(requestFailureOf(new TypeError('Failed to fetch'))).toBe('error');
    expect(requestFailureOf(null)).toBe('error');
  });
});

describe('the load messages', () => {
  it('names the method that failed to load', () => {
    expect(loadFailedMessage('Credit / Debit Card')).toBe('Failed to load Credit / Debit Card payment method. Please refresh the page and try again.');
  });

  it('asks for the details when the element never loaded', () => {
    expect(INVALID_DETAILS_MESSAGE).toBe('Invalid or missing payment details. Please ensure the provided payment method is correctly entered.');
  });
});

describe('the missing-field message', () => {
  it('names a billing or shipping field the provider says is missing', () => {
    expect(missingFieldMessage('billing_details[address][city]')).toBe('Billing Town / City is a required field.');
    expect(missingFieldMessage('billing_details[address][postal_code]')).toBe('Billing Postcode / ZIP is a required field.');
    expect(missingFieldMessage('billing_details[name]')).toBe('Billing Name is a required field.');
    expect(missingFieldMessage('billing_details[email]')).toBe('Billing Email address is a required field.');
    expect(missingFieldMessage('shipping[address][line1]')).toBe('Shipping Street address is a required field.');
    expect(missingFieldMessage('payment_method_data[billing_details][phone]')).toBe('Billing Phone is a required field.');
    expect(missingFieldMessage('billing_first_name')).toBe('Billing First name is a required field.');
    expect(missingFieldMessage('shipping_details[address][house_number]')).toBe('Shipping House number is a required field.');
  });

  it('says nothing for other parameters', () => {
    expect(missingFieldMessage('amount')).toBeNull();
    expect(missingFieldMessage('payment_method')).toBeNull();
    expect(missingFieldMessage('billing_details')).toBeNull();
  });
});

describe('the error display', () => {
  it('maps a code the page settings know to their message', () => {
    expect(paymentErrorMessage({ type: 'card_error', code: 'card_declined', message: 'Your card was declined.' }, messages)).toBe('The card was declined.');
    expect(paymentErrorMessage(new PaymentRequestError('raw', 'invalid_number'), messages)).toBe('The card number is not a valid credit card number.');
  });

  it('names the missing billing or shipping field for the four missing-parameter codes', () => {
    for (const code of ['parameter_invalid_empty', 'parameter_missing', 'parameter_string_empty', 'parameter_string_blank']) {
      expect(paymentErrorMessage({ type: 'invalid_request_error', code, param: 'billing_details[address][line1]', message: 'Missing required param.' }, messages)).toBe(
        'Billing Street address is a required field.',
      );
    }
    expect(paymentErrorMessage({ code: 'parameter_missing', param: 'amount', message: 'Missing required param: amount.' }, messages)).toBe('Missing required param: amount.');
  });

  it('shows the error’s own message otherwise', () => {
    expect(paymentErrorMessage({ code: 'weird', message: 'Something odd.' }, messages)).toBe('Something odd.');
    expect(paymentErrorMessage('Plain words.', messages)).toBe('Plain words.');
  });

  it('says the payment failed when the error has no words', () => {
    expect(paymentErrorMessage({}, messages)).toBe('Payment failed. Please try again.');
    expect(paymentErrorMessage(new PaymentRequestError(''), messages)).toBe('Payment failed. Please try again.');
  });

  it('falls back to the unknown error when there is no error at all', () => {
    expect(paymentErrorMessage(undefined, messages)).toBe('An error occurred unknown');
    expect(paymentErrorMessage(null, messages)).toBe('An error occurred unknown');
  });

  it('shows the generic message for a plain Error while confirming', () => {
    expect(paymentErrorMessage(new Error('x is undefined'), messages, { confirming: true })).toBe(messages.genericErrorMessage);
    expect(paymentErrorMessage(new TypeError('x is undefined'), messages, { confirming: true })).toBe(messages.genericErrorMessage);
    // The shop's own refusals and the provider's errors keep their words.
    expect(paymentErrorMessage(new PaymentRequestError('The order is gone.'), messages, { confirming: true })).toBe('The order is gone.');
    expect(paymentErrorMessage({ type: 'card_error', message: 'Authentication failed.' }, messages, { confirming: true })).toBe('Authentication failed.');
    expect(paymentErrorMessage(new Error('x is undefined'), messages)).toBe('x is undefined');
  });
});

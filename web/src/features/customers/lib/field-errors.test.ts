import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { fieldErrorsOf, missingFields } from './field-errors';

describe('field errors of account calls', () => {
  it('reads a list of field errors, naming fields with the form prefix', () => {
    const error = new ApiError('Please check the address.', 'ferroshop_invalid_address', 400, {
      status: 400,
      errors: [
        { field_id: 'billing_postcode', message: 'Please enter a valid postcode / ZIP.' },
        { field_id: 'city', message: 'Town / City is a required field.' },
      ],
    });
    expect(fieldErrorsOf(error, 'billing_')).toEqual({
      billing_postcode: { valid: false, code: 'server', message: 'Please enter a valid postcode / ZIP.' },
      billing_city: { valid: false, code: 'server', message: 'Town / City is a required field.' },
    });
  });

  it('reads one named field with the message of the error', () => {
    const error = new ApiError('An account is already registered with your email address.', 'registration-error-email-exists', 400, {
      status: 400,
      field: 'email',
    });
    expect(fieldErrorsOf(error)).toEqual({ email: { valid: false, code: 'server', message: error.message } });
    expect(fieldErrorsOf(new Error('x'))).toEqual({});
  });

  it('lists required fields left empty', () => {
    expect(
      missingFields([
        { id: 'account_first_name', label: 'First name', value: ' ', required: true },
        { id: 'account_last_name', label: 'Last name', value: 'Lovelace', required: true },
        { id: 'account_display_name', label: 'Display name', value: '', required: false },
      ]),
    ).toEqual({ account_first_name: { valid: false, code: 'required', message: 'First name is a required field.' } });
  });
});

import { describe, expect, it } from 'vitest';
import {
  BLIK_CODE_INVALID,
  billingDetails,
  CASH_APP_NOTICE,
  checkBlikCode,
  elementMode,
  gatewayIdOf,
  hasPaymentGateway,
  hiddenBillingFields,
  isOfferedIn,
  methodTypeOf,
  NOT_SAVABLE_TYPES,
  PAYMENT_METHOD_TYPES,
  showsCashAppNotice,
  showsSaveOption,
  termsOption,
  type SaveOptionContext,
} from './method-rules';

describe('the method types', () => {
  it('knows all 22 types the gateway supports', () => {
    expect([...PAYMENT_METHOD_TYPES].sort()).toEqual(
      [
        'blik', 'card', 'us_bank_account', 'au_becs_debit', 'giropay', 'eps', 'ideal', 'p24', 'sepa_debit', 'sofort', 'boleto',
        'oxxo', 'bancontact', 'alipay', 'multibanco', 'klarna', 'affirm', 'afterpay_clearpay', 'wechat_pay', 'cashapp', 'acss_debit', 'bacs_debit',
      ].sort(),
    );
  });

  it('names the card gateway stripe and the others stripe_{type}, both ways', () => {
    expect(gatewayIdOf('card')).toBe('stripe');
    expect(gatewayIdOf('sepa_debit')).toBe('stripe_sepa_debit');
    for (const type of PAYMENT_METHOD_TYPES) expect(methodTypeOf(gatewayIdOf(type))).toBe(type);
    expect(methodTypeOf('bacs')).toBeNull();
    expect(methodTypeOf('stripe_unknown')).toBeNull();
    expect(methodTypeOf('stripes')).toBeNull();
  });

  it('says whether the shop offers the gateway at all', () => {
    expect(hasPaymentGateway([{ id: 'bacs' }, { id: 'cod' }])).toBe(false);
    expect(hasPaymentGateway([{ id: 'bacs' }, { id: 'stripe' }])).toBe(true);
    expect(hasPaymentGateway([{ id: 'stripe_ideal' }])).toBe(true);
  });
});

describe('where a method is offered', () => {
  it('offers a method without a country list everywhere', () => {
    expect(isOfferedIn({ countries: [] }, 'GB')).toBe(true);
    expect(isOfferedIn(undefined, 'GB')).toBe(true);
  });

  it('offers a method with a country list only for a billing country on it', () => {
    const ideal = { countries: ['NL'] };
    expect(isOfferedIn(ideal, 'NL')).toBe(true);
    expect(isOfferedIn(ideal, 'DE')).toBe(false);
    expect(isOfferedIn(ideal, '')).toBe(false);
  });
});

describe('the save option', () => {
  const at = (overrides: Partial<SaveOptionContext>): SaveOptionContext => ({
    page: 'checkout',
    isLoggedIn: false,
    isSignupOnCheckoutAllowed: false,
    createAccount: false,
    ...overrides,
  });

  it('is hidden for the methods that cannot be saved', () => {
    expect([...NOT_SAVABLE_TYPES].sort()).toEqual(['affirm', 'afterpay_clearpay', 'alipay', 'au_becs_debit', 'boleto', 'eps', 'giropay', 'multibanco', 'oxxo', 'p24', 'wechat_pay']);
    for (const type of NOT_SAVABLE_TYPES) expect(showsSaveOption(type, undefined, at({ isLoggedIn: true }))).toBe(false);
  });

  it('shows at checkout for logged-in shoppers', () => {
    expect(showsSaveOption('card', undefined, at({ isLoggedIn: true }))).toBe(true);
    expect(showsSaveOption('card', undefined, at({}))).toBe(false);
  });

  it('shows at checkout for a guest only when account creation is allowed and ticked', () => {
    expect(showsSaveOption('card', undefined, at({ isSignupOnCheckoutAllowed: true, createAccount: true }))).toBe(true);
    expect(showsSaveOption('card', undefined, at({ isSignupOnCheckoutAllowed: true, createAccount: false }))).toBe(false);
    expect(showsSaveOption('card', undefined, at({ isSignupOnCheckoutAllowed: false, createAccount: true }))).toBe(false);
  });

  it('follows the method settings and the page', () => {
    expect(showsSaveOption('card', { showSaveOption: false }, at({ isLoggedIn: true }))).toBe(false);
    expect(showsSaveOption('card', undefined, at({ page: 'order-pay', isLoggedIn: true }))).toBe(true);
    expect(showsSaveOption('card', undefined, at({ page: 'order-pay' }))).toBe(false);
    expect(showsSaveOption('card', undefined, at({ page: 'add-payment-method', isLoggedIn: true }))).toBe(false);
    expect(showsSaveOption('card', undefined, at({ page: 'change-payment', isLoggedIn: true }))).toBe(false);
  });
});

describe('the provider terms', () => {
  const configs = { card: { isReusable: true }, ideal: { isReusable: true }, giropay: { isReusable: false } };
  const none = { saveTicked: false, cartContainsSubscription: false, subscriptionRequiresManualRenewal: false };

  it('shows them for reusable methods when the method is being saved', () => {
    expect(termsOption(configs, { ...none, saveTicked: true })).toEqual({ card: 'always', ideal: 'always' });
  });

  it('shows them for subscriptions that renew on their own', () => {
    expect(termsOption(configs, { ...none, cartContainsSubscription: true })).toEqual({ card: 'always', ideal: 'always' });
    expect(termsOption(configs, { ...none, cartContainsSubscription: true, subscriptionRequiresManualRenewal: true })).toEqual({ card: 'never', ideal: 'never' });
  });

  it('leaves a bank debit’s mandate to the element, which always shows it', () => {
    const debits = { sepa_debit: { isReusable: true }, us_bank_account: { isReusable: true }, au_becs_debit: { isReusable: true } };
    expect(termsOption(debits, none)).toEqual({});
    expect(termsOption(debits, { ...none, saveTicked: true })).toEqual({});
  });

  it('never shows them otherwise', () => {
    expect(termsOption(configs, none)).toEqual({ card: 'never', ideal: 'never' });
  });
});

describe('the element mode', () => {
  it('sets up when the total is below 1, else pays', () => {
    expect(elementMode(0)).toBe('setup');
    expect(elementMode(0.5)).toBe('setup');
    expect(elementMode(1)).toBe('payment');
    expect(elementMode(2935)).toBe('payment');
  });
});

describe('the Cash App notice', () => {
  it('shows for Cash App above 200000 minor units', () => {
    expect(CASH_APP_NOTICE).toBe('Please note that, depending on your account and transaction history, Cash App Pay may reject your transaction due to its amount.');
    expect(showsCashAppNotice('cashapp', 200_001)).toBe(true);
    expect(showsCashAppNotice('cashapp', 200_000)).toBe(false);
    expect(showsCashAppNotice('card', 500_000)).toBe(false);
  });
});

describe('the BLIK code', () => {
  it('takes six digits', () => {
    expect(checkBlikCode('123456')).toBeNull();
    expect(checkBlikCode(' 123456 ')).toBeNull();
  });

  it('refuses anything else with "BLIK Code is invalid"', () => {
    expect(BLIK_CODE_INVALID).toBe('BLIK Code is invalid');
    for (const code of ['', '12345', '1234567', '12a456', '123 456']) expect(checkBlikCode(code)).toBe('BLIK Code is invalid');
  });
});

describe('the billing fields', () => {
  it('hides from the element what the shop form asks for', () => {
    expect(
      hiddenBillingFields(['billing_first_name', 'billing_last_name', 'billing_company', 'billing_country', 'billing_address_1', 'billing_address_2', 'billing_city', 'billing_state', 'billing_postcode', 'billing_phone', 'billing_email']),
    ).toEqual({
      name: 'never',
      email: 'never',
      phone: 'never',
      address: { country: 'never', line1: 'never', line2: 'never', city: 'never', state: 'never', postalCode: 'never' },
    });
  });

  it('leaves to the element what the form does not have', () => {
    expect(hiddenBillingFields(['billing_last_name', 'billing_email', 'billing_postcode'])).toEqual({
      name: 'never',
      email: 'never',
      phone: 'auto',
      address: { country: 'auto', line1: 'auto', line2: 'auto', city: 'auto', state: 'auto', postalCode: 'never' },
    });
  });

  it('sends the name as first plus last name, and the address in the provider’s words', () => {
    expect(
      billingDetails({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.test', phone: '555', address_1: '1 Main St', address_2: 'Flat 2', city: 'London', state: '', postcode: 'N1 1AA', country: 'GB', company: 'Engines' }),
    ).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.test',
      phone: '555',
      address: { city: 'London', country: 'GB', line1: '1 Main St', line2: 'Flat 2', postal_code: 'N1 1AA', state: '' },
    });
    expect(billingDetails({ last_name: 'Lovelace' }).name).toBe('Lovelace');
  });
});

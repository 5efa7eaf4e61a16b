import { describe, expect, it } from 'vitest';
import { intentIdOf, parseConfirmFragment } from './confirm-fragment';

describe('the confirmation fragment', () => {
  it('reads a payment intent to confirm at checkout', () => {
    expect(parseConfirmFragment('/checkout/#wc-stripe-confirm-pi:12:pi_3Abc_secret_Xyz:a1b2c3')).toEqual({
      kind: 'pi',
      orderId: 12,
      clientSecret: 'pi_3Abc_secret_Xyz',
      nonce: 'a1b2c3',
      intentId: 'pi_3Abc',
    });
  });

  it('reads a setup intent on the order-pay page, with the query before it', () => {
    expect(parseConfirmFragment('http://shop.test/checkout/order-pay/12/?key=wc_order_abc#wc-stripe-confirm-si:12:seti_1_secret_2:n0nce')).toMatchObject({
      kind: 'si',
      orderId: 12,
      clientSecret: 'seti_1_secret_2',
      intentId: 'seti_1',
      nonce: 'n0nce',
    });
  });

  it('finds nothing in other addresses', () => {
    expect(parseConfirmFragment('/checkout/order-received/12/?key=wc_order_abc')).toBeNull();
    expect(parseConfirmFragment('/checkout/#wc-stripe-voucher-12:boleto:pi_1_secret_2:%2Fthanks')).toBeNull();
    expect(parseConfirmFragment('/checkout/#wc-stripe-confirm-xx:12:pi_1_secret_2:n')).toBeNull();
    expect(parseConfirmFragment('/checkout/#wc-stripe-confirm-pi:twelve:pi_1_secret_2:n')).toBeNull();
  });

  it('takes the intent id from its client secret', () => {
    expect(intentIdOf('pi_123_secret_abc')).toBe('pi_123');
    expect(intentIdOf('plain')).toBe('plain');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { intentIdOf, parseConfirmFragment, parseReturnFragment } from './confirm-fragment';
import { looksLikeReturnFragment, removeReturnFragment } from './fragment-marker';

const RETURN = encodeURIComponent('http://shop.test/checkout/order-received/12/?key=wc_order_abc');

describe('the 3-D Secure fragment', () => {
  it('reads a payment intent to confirm at checkout', () => {
    expect(parseReturnFragment('/checkout/#wc-stripe-confirm-pi:12:pi_3Abc_secret_Xyz:a1b2c3')).toEqual({
      kind: 'confirm',
      intentKind: 'payment_intent',
      orderId: 12,
      clientSecret: 'pi_3Abc_secret_Xyz',
      nonce: 'a1b2c3',
      intentId: 'pi_3Abc',
    });
  });

  it('reads a setup intent on the order-pay page, with the query before it', () => {
    expect(parseConfirmFragment('http://shop.test/checkout/order-pay/12/?key=wc_order_abc#wc-stripe-confirm-si:12:seti_1_secret_2:n0nce')).toMatchObject({
      kind: 'confirm',
      intentKind: 'setup_intent',
      orderId: 12,
      clientSecret: 'seti_1_secret_2',
      intentId: 'seti_1',
      nonce: 'n0nce',
    });
  });

  it('is the only kind parseConfirmFragment answers', () => {
    expect(parseConfirmFragment(`/checkout/#wc-stripe-voucher-12:boleto:pi_1_secret_2:${RETURN}`)).toBeNull();
    expect(parseReturnFragment(`/checkout/#wc-stripe-voucher-12:boleto:pi_1_secret_2:${RETURN}`)).not.toBeNull();
  });
});

describe('the older card confirmation fragment', () => {
  it('reads a payment intent and its encoded return URL', () => {
    expect(parseReturnFragment(`#confirm-pi-pi_7_secret_k9:${RETURN}`)).toEqual({
      kind: 'legacy-confirm',
      intentKind: 'payment_intent',
      clientSecret: 'pi_7_secret_k9',
      intentId: 'pi_7',
      returnUrl: 'http://shop.test/checkout/order-received/12/?key=wc_order_abc',
    });
  });

  it('reads a setup intent with a path for a return URL', () => {
    expect(parseReturnFragment('/my-account/add-payment-method/#confirm-si-seti_4_secret_z:%2Fmy-account%2Fpayment-methods%2F')).toMatchObject({
      kind: 'legacy-confirm',
      intentKind: 'setup_intent',
      intentId: 'seti_4',
      returnUrl: '/my-account/payment-methods/',
    });
  });
});

describe('the voucher fragment', () => {
  it.each(['boleto', 'multibanco', 'oxxo'] as const)('reads a %s voucher', (method) => {
    expect(parseReturnFragment(`http://shop.test/checkout/#wc-stripe-voucher-12:${method}:pi_5_secret_v:${RETURN}`)).toEqual({
      kind: 'voucher',
      orderId: 12,
      method,
      clientSecret: 'pi_5_secret_v',
      intentId: 'pi_5',
      returnUrl: 'http://shop.test/checkout/order-received/12/?key=wc_order_abc',
    });
  });

  it('knows no other voucher method', () => {
    expect(parseReturnFragment(`#wc-stripe-voucher-12:konbini:pi_5_secret_v:${RETURN}`)).toBeNull();
    expect(parseReturnFragment(`#wc-stripe-voucher-12:card:pi_5_secret_v:${RETURN}`)).toBeNull();
  });
});

describe('the wallet fragment', () => {
  it('reads a WeChat Pay payment', () => {
    expect(parseReturnFragment(`/checkout/#wc-stripe-wallet-12:wechat_pay:payment_intent:pi_8_secret_w:${RETURN}:f00d`)).toEqual({
      kind: 'wallet',
      orderId: 12,
      wallet: 'wechat_pay',
      intentKind: 'payment_intent',
      clientSecret: 'pi_8_secret_w',
      intentId: 'pi_8',
      returnUrl: 'http://shop.test/checkout/order-received/12/?key=wc_order_abc',
      nonce: 'f00d',
    });
  });

  it('reads a Cash App setup', () => {
    expect(parseReturnFragment(`#wc-stripe-wallet-40:cashapp:setup_intent:seti_9_secret_c:${RETURN}:n1`)).toMatchObject({
      kind: 'wallet',
      wallet: 'cashapp',
      intentKind: 'setup_intent',
      intentId: 'seti_9',
      orderId: 40,
    });
  });

  it('reads a wallet it does not handle (its handler refuses it)', () => {
    expect(parseReturnFragment(`#wc-stripe-wallet-12:paypal:payment_intent:pi_8_secret_w:${RETURN}:n1`)).toMatchObject({ kind: 'wallet', wallet: 'paypal' });
  });

  it('needs the nonce and a known intent kind', () => {
    expect(parseReturnFragment(`#wc-stripe-wallet-12:cashapp:payment_intent:pi_8_secret_w:${RETURN}`)).toBeNull();
    expect(parseReturnFragment(`#wc-stripe-wallet-12:cashapp:source:pi_8_secret_w:${RETURN}:n1`)).toBeNull();
  });
});

describe('what is not a return fragment', () => {
  it('finds nothing in other addresses', () => {
    expect(parseReturnFragment('/checkout/order-received/12/?key=wc_order_abc')).toBeNull();
    expect(parseReturnFragment('/checkout/#payment')).toBeNull();
    expect(parseReturnFragment('')).toBeNull();
    expect(looksLikeReturnFragment('/checkout/#payment')).toBe(false);
  });

  it('refuses unknown kinds and order ids that are not numbers', () => {
    expect(parseReturnFragment('/checkout/#wc-stripe-confirm-xx:12:pi_1_secret_2:n')).toBeNull();
    expect(parseReturnFragment('/checkout/#wc-stripe-confirm-pi:twelve:pi_1_secret_2:n')).toBeNull();
    expect(parseReturnFragment('/checkout/#wc-stripe-confirm-pi:0:pi_1_secret_2:n')).toBeNull();
    expect(parseReturnFragment('/checkout/#wc-stripe-confirm-pi:-12:pi_1_secret_2:n')).toBeNull();
    expect(parseReturnFragment('/checkout/#wc-stripe-confirm-pi:1e3:pi_1_secret_2:n')).toBeNull();
    expect(parseReturnFragment(`#wc-stripe-voucher-12.5:oxxo:pi_1_secret_2:${RETURN}`)).toBeNull();
    expect(parseReturnFragment(`#confirm-xi-pi_1_secret_2:${RETURN}`)).toBeNull();
  });

  it('refuses a client secret of the other intent kind, or not a client secret at all', () => {
    expect(parseReturnFragment('#wc-stripe-confirm-si:12:pi_1_secret_2:n')).toBeNull();
    expect(parseReturnFragment('#wc-stripe-confirm-pi:12:seti_1_secret_2:n')).toBeNull();
    expect(parseReturnFragment(`#wc-stripe-voucher-12:oxxo:seti_1_secret_2:${RETURN}`)).toBeNull();
    expect(parseReturnFragment(`#wc-stripe-wallet-12:cashapp:setup_intent:pi_1_secret_2:${RETURN}:n`)).toBeNull();
    expect(parseReturnFragment('#wc-stripe-confirm-pi:12:pi_1:n')).toBeNull();
    expect(parseReturnFragment('#wc-stripe-confirm-pi:12:cus_1_secret_2:n')).toBeNull();
    expect(parseReturnFragment(`#confirm-pi-pi_1_secret_<b>:${RETURN}`)).toBeNull();
  });

  it('refuses extra or missing parts', () => {
    expect(parseReturnFragment('#wc-stripe-confirm-pi:12:pi_1_secret_2')).toBeNull();
    expect(parseReturnFragment('#wc-stripe-confirm-pi:12:pi_1_secret_2:n:extra')).toBeNull();
    expect(parseReturnFragment(`#wc-stripe-voucher-12:oxxo:pi_1_secret_2:${RETURN}:extra`)).toBeNull();
    expect(parseReturnFragment('#wc-stripe-voucher-12:oxxo:pi_1_secret_2:')).toBeNull();
  });

  it('refuses a return URL that does not decode', () => {
    expect(parseReturnFragment('#wc-stripe-voucher-12:oxxo:pi_1_secret_2:%E0%A4%A')).toBeNull();
    expect(parseReturnFragment('#confirm-pi-pi_1_secret_2:%')).toBeNull();
    expect(parseReturnFragment('#wc-stripe-wallet-12:cashapp:payment_intent:pi_1_secret_2:%ZZ:n')).toBeNull();
  });

  it('refuses a return URL that is no web address', () => {
    expect(parseReturnFragment(`#wc-stripe-voucher-12:oxxo:pi_1_secret_2:${encodeURIComponent('javascript:alert(1)')}`)).toBeNull();
    expect(parseReturnFragment(`#confirm-pi-pi_1_secret_2:${encodeURIComponent('data:text/html,<script>alert(1)</script>')}`)).toBeNull();
    expect(parseReturnFragment(`#confirm-pi-pi_1_secret_2:${encodeURIComponent('/thanks\n')}`)).toBeNull();
    expect(parseReturnFragment(`#confirm-pi-pi_1_secret_2:${encodeURIComponent('http://[::1')}`)).toBeNull();
    // A raw (unencoded) address has a colon: it is not one part.
    expect(parseReturnFragment('#confirm-pi-pi_1_secret_2:http://evil.test/')).toBeNull();
  });

  it('refuses a nonce with more than letters and digits', () => {
    expect(parseReturnFragment('#wc-stripe-confirm-pi:12:pi_1_secret_2:n%3Cscript')).toBeNull();
    expect(parseReturnFragment('#wc-stripe-confirm-pi:12:pi_1_secret_2:"onload')).toBeNull();
  });

  it('refuses an overlong fragment without trying it', () => {
    const long = `#wc-stripe-voucher-12:oxxo:pi_1_secret_2:${'%2F'.repeat(2000)}`;
    expect(parseReturnFragment(long)).toBeNull();
  });

  it('takes the intent id from its client secret', () => {
    expect(intentIdOf('pi_123_secret_abc')).toBe('pi_123');
    expect(intentIdOf('plain')).toBe('plain');
  });
});

describe('taking a fragment out of the address', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('keeps the path, the query and the history entry’s state', () => {
    window.history.replaceState({ idx: 3, key: 'k' }, '', `/checkout/order-pay/12/?key=wc_order_abc#wc-stripe-voucher-12:oxxo:pi_1_secret_2:${RETURN}`);
    removeReturnFragment();
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/checkout/order-pay/12/?key=wc_order_abc');
    expect(window.history.state).toEqual({ idx: 3, key: 'k' });
  });

  it('leaves any other fragment', () => {
    window.history.replaceState(null, '', '/checkout#payment');
    removeReturnFragment();
    expect(window.location.hash).toBe('#payment');
  });
});

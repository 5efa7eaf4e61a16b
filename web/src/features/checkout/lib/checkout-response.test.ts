import { describe, expect, it } from 'vitest';
import { parseCheckoutResponse } from './checkout-response';

describe('reading the checkout answer', () => {
  it('reads a clean answer', () => {
    expect(
      parseCheckoutResponse('{"result":"success","redirect":"http:\\/\\/shop.test\\/checkout\\/order-received\\/60\\/?key=wc_order_x","order_id":60}'),
    ).toEqual({ result: 'success', redirect: 'http://shop.test/checkout/order-received/60/?key=wc_order_x', order_id: 60 });
  });

  it('cuts the object beginning with {"result" out of stray output around it', () => {
    const text = '<br />\n<b>Notice</b>: something printed {oops}\n{"result":"failure","messages":"<ul class=\\"woocommerce-error\\"><li>No {braces} here<\\/li><\\/ul>","refresh":false,"reload":false}\n<!-- trailing -->';
    expect(parseCheckoutResponse(text)).toEqual({
      result: 'failure',
      messages: '<ul class="woocommerce-error"><li>No {braces} here</li></ul>',
      refresh: false,
      reload: false,
    });
  });

  it('ignores a closing brace inside a string and escaped quotes', () => {
    const text = 'xx{"result":"failure","messages":"a \\"}\\" b"}yy';
    expect(parseCheckoutResponse(text)).toEqual({ result: 'failure', messages: 'a "}" b' });
  });

  it('gives null for answers without a result object', () => {
    expect(parseCheckoutResponse('')).toBeNull();
    expect(parseCheckoutResponse('<html>Fatal error</html>')).toBeNull();
    expect(parseCheckoutResponse('-1')).toBeNull();
    expect(parseCheckoutResponse('{"result":"maybe"}')).toBeNull();
    expect(parseCheckoutResponse('{"result":"success"')).toBeNull();
  });
});

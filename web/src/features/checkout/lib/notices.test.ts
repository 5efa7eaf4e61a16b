import { describe, expect, it } from 'vitest';
import { isErrorHtml, parseNotices } from './notices';

// The answer of the original shop to a checkout with empty required fields (shortened).
const MISSING_FIELDS =
  '<ul class="woocommerce-error" role="alert">\n\t\t\t<li data-id="billing_first_name">\n\t\t\t<strong>Billing First name</strong> is a required field.\t\t</li>\n\t\t\t<li data-id="billing_email">\n\t\t\t<strong>Billing Email address</strong> is a required field.\t\t</li>\n\t\t\t<li>\n\t\t\tPlease read and accept the terms.\t\t</li>\n\t</ul>\n';

describe('notices in the HTML of classic answers', () => {
  it('gives one error per list item, with the field it names', () => {
    expect(parseNotices(MISSING_FIELDS)).toEqual([
      { tone: 'error', text: 'Billing First name is a required field.', fieldId: 'billing_first_name' },
      { tone: 'error', text: 'Billing Email address is a required field.', fieldId: 'billing_email' },
      { tone: 'error', text: 'Please read and accept the terms.', fieldId: null },
    ]);
  });

  it('reads a success box and decodes entities', () => {
    expect(parseNotices('\n\t<div class="woocommerce-message" role="alert">\n\t\tCoupon code applied successfully. &amp; more\t</div>\n')).toEqual([
      { tone: 'success', text: 'Coupon code applied successfully. & more', fieldId: null },
    ]);
  });

  it('reads block-style notices', () => {
    const html = '<div class="wc-block-components-notice-banner is-error" role="alert"><div class="wc-block-components-notice-banner__content">Coupon "nope" does not exist!</div></div>';
    expect(parseNotices(html)).toEqual([{ tone: 'error', text: 'Coupon "nope" does not exist!', fieldId: null }]);
  });

  it('never runs markup from the server', () => {
    const notices = parseNotices('<ul class="woocommerce-error"><li><img src=x onerror="window.__pwned=1">Bad<script>window.__pwned=1</script></li></ul>');
    expect(notices).toEqual([{ tone: 'error', text: 'Badwindow.__pwned=1', fieldId: null }]);
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('treats bare text as a notice of the given tone, and nothing as none', () => {
    expect(parseNotices('Something went wrong', 'error')).toEqual([{ tone: 'error', text: 'Something went wrong', fieldId: null }]);
    expect(parseNotices('   ')).toEqual([]);
  });

  it('recognises a coupon refusal by its woocommerce-error or is-error marker', () => {
    expect(isErrorHtml('<ul class="woocommerce-error" role="alert"><li>Coupon "nope" does not exist!</li></ul>')).toBe(true);
    expect(isErrorHtml('<div class="wc-block-components-notice-banner is-error">x</div>')).toBe(true);
    expect(isErrorHtml('<div class="woocommerce-message" role="alert">Coupon code applied successfully.</div>')).toBe(false);
    expect(isErrorHtml('<div class="woocommerce-message">Coupon has been removed.</div>')).toBe(false);
  });
});

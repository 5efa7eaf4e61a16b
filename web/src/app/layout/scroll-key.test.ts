import { describe, expect, it } from 'vitest';
import type { Location } from 'react-router';
import { scrollKey } from './app-layout';

const at = (pathname: string, search: string, key: string): Location => ({ pathname, search, hash: '', state: null, key });

describe('where a scroll position is kept', () => {
  it('keeps pages opened afresh apart by their address', () => {
    // The checkout left for the bank, the thank-you page opened afresh: not the checkout's position.
    expect(scrollKey(at('/checkout/', '', 'default'))).not.toBe(scrollKey(at('/checkout/order-received/7/', '?key=k', 'default')));
    expect(scrollKey(at('/checkout/order-received/7/', '?key=k', 'default'))).toBe('/checkout/order-received/7/?key=k');
  });

  it('keeps moves within the app by their history entry', () => {
    expect(scrollKey(at('/shop/', '', 'x1y2'))).toBe('x1y2');
  });
});

import { render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { settings } from '@/config/settings';
import { fireEvent } from '@/test/events';
import { dismissalCookie, StoreNotice, storeNoticeCookieName } from './store-notice';

afterEach(() => {
  settings.store_notice = null;
  document.cookie = 'store_noticesale-1=; max-age=0; path=/';
});

describe('the store notice', () => {
  it('remembers a dismissal in the cookie named after the notice: hidden, on the whole site', () => {
    expect(storeNoticeCookieName('sale-1')).toBe('store_noticesale-1');
    expect(dismissalCookie('sale-1', false)).toBe('store_noticesale-1=hidden; path=/; SameSite=Lax');
    expect(dismissalCookie('sale-1', true)).toBe('store_noticesale-1=hidden; path=/; SameSite=Lax; Secure');
  });

  it('shows the shop’s text with a Dismiss button that hides it and sets the cookie', () => {
    settings.store_notice = { id: 'sale-1', text: 'Free shipping <strong>this week</strong><script>alert(1)</script>' };
    render(<StoreNotice />);
    const notice = screen.getByRole('region', { name: 'Store notice' });
    expect(notice.textContent).toContain('Free shipping this week');
    expect(notice.querySelector('strong')?.textContent).toBe('this week');
    expect(notice.querySelector('script')).toBeNull();
    expect(notice.getAttribute('data-notice-id')).toBe('sale-1');

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Store notice' })).toBeNull();
    expect(document.cookie).toContain('store_noticesale-1=hidden');
  });

  it('is not there when the page carries none (none set, or dismissed already)', () => {
    const { container } = render(<StoreNotice />);
    expect(container.innerHTML).toBe('');
  });
});

import { act, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveRegion } from '@/components/ui/live-region';
import { announce, ANNOUNCE_DELAY_MS } from './screen-reader';

function region() {
  return document.getElementById('a11y-speak-polite')!;
}

describe('screen-reader announcements', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    render(<LiveRegion />);
  });

  afterEach(() => {
    act(() => {
      vi.runOnlyPendingTimers();
    });
  });

  it('wait one second before they are spoken', () => {
    expect(ANNOUNCE_DELAY_MS).toBe(1000);
    act(() => announce('“Beanie” has been added to your cart.'));
    expect(region().textContent).toBe('');

    act(() => {
      vi.advanceTimersByTime(999);
    });
    expect(region().textContent).toBe('');

    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(region().textContent).toBe('“Beanie” has been added to your cart.');
  });

  it('speak through a polite live region', () => {
    expect(region().getAttribute('aria-live')).toBe('polite');
    act(() => {
      announce('Hello');
      vi.advanceTimersByTime(ANNOUNCE_DELAY_MS);
    });
    expect(screen.getByText('Hello')).toBe(region());
  });

  it('empty the region first, so the same message is spoken again', () => {
    act(() => {
      announce('Added');
      vi.advanceTimersByTime(ANNOUNCE_DELAY_MS);
    });
    act(() => announce('Added'));
    expect(region().textContent).toBe('');
    act(() => {
      vi.advanceTimersByTime(ANNOUNCE_DELAY_MS);
    });
    expect(region().textContent).toBe('Added');
  });

  it('replace a message that has not been spoken yet', () => {
    act(() => {
      announce('First');
      vi.advanceTimersByTime(500);
      announce('Second');
      vi.advanceTimersByTime(ANNOUNCE_DELAY_MS);
    });
    expect(region().textContent).toBe('Second');
  });
});

import { render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { BlockingOverlay, BUSY_MESSAGE } from './blocking-overlay';

describe('the busy overlay', () => {
  it('says "Please wait..." by default where a message is wanted', () => {
    expect(BUSY_MESSAGE).toBe('Please wait...');
    render(<BlockingOverlay active message={BUSY_MESSAGE} />);
    expect(screen.getByRole('status').textContent).toBe('Please wait...');
  });

  it('veils its region without a word for screen readers when it carries no message', () => {
    render(<BlockingOverlay active />);
    expect(screen.getByTestId('blocking-overlay').getAttribute('aria-hidden')).toBe('true');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('is gone when nothing is busy', () => {
    const { container } = render(<BlockingOverlay active={false} message={BUSY_MESSAGE} />);
    expect(container.innerHTML).toBe('');
  });
});

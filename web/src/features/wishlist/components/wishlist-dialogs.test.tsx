import { act, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, setValue } from '@/test/events';
import { AddedDialog } from './added-dialog';
import { ChooseWishlist, EMPTY_CHOICE_MESSAGE, EMPTY_CHOICE_MS } from './choose-wishlist';

const lists = [
  { ID: 7, title: 'Default wishlist', status: 'share', share_key: 'aaa', url: '/wishlist/aaa/', count: 2, is_default: true },
  { ID: 9, title: 'Gifts', status: 'share', share_key: 'bbb', url: '/wishlist/bbb/', count: 0, is_default: false },
];

describe('the add dialog', () => {
  afterEach(() => vi.useRealTimers());

  it('is a labelled modal dialog with View Wishlist and Close, closed by Escape', () => {
    const onClose = vi.fn();
    render(<AddedDialog lines={['Cap added to Gifts']} success viewUrl="/wishlist/bbb/" closeAfterMs={null} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Cap added to Gifts' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'View Wishlist' }));
    screen.getByRole('button', { name: 'Close' });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('keeps the focus inside', () => {
    render(<AddedDialog lines={['Cap added to Gifts']} success viewUrl="/wishlist/bbb/" closeAfterMs={null} onClose={() => undefined} />);
    const close = screen.getByRole('button', { name: 'Close' });
    close.focus();
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'View Wishlist' }));
  });

  it('closes by itself after the popup timer, unless a redirect is pending', () => {
    vi.useFakeTimers();
    const onClose = vi.fn();
    const { unmount } = render(<AddedDialog lines={['x']} success={false} viewUrl={null} closeAfterMs={6000} onClose={onClose} />);
    act(() => {
      vi.advanceTimersByTime(5999);
    });
    expect(onClose).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(onClose).toHaveBeenCalledTimes(1);
    unmount();
    const held = vi.fn();
    render(<AddedDialog lines={['x']} success viewUrl={null} closeAfterMs={null} onClose={held} />);
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(held).not.toHaveBeenCalled();
  });
});

describe('the list chooser', () => {
  afterEach(() => vi.useRealTimers());

  it('adds to the list chosen', () => {
    const onChoose = vi.fn();
    render(<ChooseWishlist lists={lists} productName="Cap" onChoose={onChoose} onClose={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Wishlist'), { target: { value: '9' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add to Wishlist' }));
    expect(onChoose).toHaveBeenCalledWith({ wishlistId: 9, wishlistName: '' });
  });

  it('creates a list by name', () => {
    const onChoose = vi.fn();
    render(<ChooseWishlist lists={lists} productName="Cap" onChoose={onChoose} onClose={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Wishlist'), { target: { value: '' } });
    setValue(screen.getByLabelText('New wishlist’s name'), '  Birthday  ');
    fireEvent.click(screen.getByRole('button', { name: 'Add to Wishlist' }));
    expect(onChoose).toHaveBeenCalledWith({ wishlistId: '', wishlistName: 'Birthday' });
  });

  it('marks an empty name for a second and sends nothing', () => {
    vi.useFakeTimers();
    const onChoose = vi.fn();
    render(<ChooseWishlist lists={lists} productName="Cap" onChoose={onChoose} onClose={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Wishlist'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add to Wishlist' }));
    const name = screen.getByLabelText('New wishlist’s name');
    expect(onChoose).not.toHaveBeenCalled();
    expect(name.classList.contains('empty-name-wishlist')).toBe(true);
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe(EMPTY_CHOICE_MESSAGE);
    act(() => {
      vi.advanceTimersByTime(EMPTY_CHOICE_MS);
    });
    expect(name.classList.contains('empty-name-wishlist')).toBe(false);
  });
});

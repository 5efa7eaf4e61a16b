import { act, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyRenderSettings, DEFAULT_SETTINGS, settings } from '@/config/settings';
import { fireEvent } from '@/test/events';
import { renderWithApp } from '@/test/render';
import { storeWishlistsData } from '../lib/wishlist-cache';
import { ALREADY_TEXT, REMOVE_TEXT, WishlistButton } from './wishlist-button';

const KEY = 'ti_wishlist_data_button';
const listed = { products: { '12': { '7': { ID: 7, title: 'Default wishlist', status: 'share', share_key: 'abc', in: [0] } } }, counter: 1 };

describe('the wishlist heart', () => {
  const before = { ...settings };
  beforeEach(() => applyRenderSettings({ ...DEFAULT_SETTINGS, wishlist: { ...DEFAULT_SETTINGS.wishlist, hash_key: KEY } }));
  afterEach(() => applyRenderSettings(before));

  it('is a toggle button, pressed once the data says the product is listed', async () => {
    renderWithApp(<WishlistButton productId={12} productName="Cap" productType="simple" placement="card" />);
    const heart = screen.getByRole('button', { name: 'Add to Wishlist' });
    expect(heart.getAttribute('aria-pressed')).toBe('false');
    act(() => storeWishlistsData(listed));
    await waitFor(() => expect(screen.getByRole('button', { name: ALREADY_TEXT }).getAttribute('aria-pressed')).toBe('true'));
    expect(localStorage.getItem(KEY)).toBe(JSON.stringify(listed));
    expect(sessionStorage.getItem(KEY)).toBe(JSON.stringify(listed));
  });

  it('offers to remove a listed product in the simple flow', async () => {
    applyRenderSettings({ ...settings, wishlist: { ...settings.wishlist, simple_flow: true } });
    renderWithApp(<WishlistButton productId={12} productName="Cap" productType="simple" placement="product" />);
    act(() => storeWishlistsData(listed));
    await waitFor(() => expect(screen.getByRole('button', { name: REMOVE_TEXT }).getAttribute('aria-pressed')).toBe('true'));
  });

  it('waits for a variation on a variable product’s page, saying so when pressed', () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<WishlistButton productId={40} productName="Hoodie" productType="variable" needsChoice placement="product" />);
    const heart = screen.getByRole('button', { name: 'Add to Wishlist' });
    expect(heart.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(heart);
    expect(alert).toHaveBeenCalledWith('Please select some product options before adding this product to your wishlist.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('lets a parent variable product be listed when the shop allows it', () => {
    applyRenderSettings({ ...settings, wishlist: { ...settings.wishlist, allow_parent_variable: true } });
    renderWithApp(<WishlistButton productId={40} productName="Hoodie" productType="variable" needsChoice placement="product" />);
    expect(screen.getByRole('button', { name: 'Add to Wishlist' }).getAttribute('aria-disabled')).toBeNull();
  });
});

import { screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyRenderSettings, DEFAULT_SETTINGS, parseSettings, settings } from '@/config/settings';
import { fireEvent } from '@/test/events';
import { renderWithApp } from '@/test/render';
import { COMING_SOON_TEXT, ComingSoonBanner } from './coming-soon-banner';

describe('the coming-soon banner', () => {
  const before = { ...settings };
  beforeEach(() => applyRenderSettings({ ...DEFAULT_SETTINGS, coming_soon: { rest_url: '/wp-json/wp/v2/users/4', nonce: 'n0nce' } }));
  afterEach(() => {
    applyRenderSettings(before);
    vi.unstubAllGlobals();
  });

  it('shows staff the mode, with a dismiss link naming where it is written', () => {
    renderWithApp(<ComingSoonBanner />);
    expect(screen.getByRole('region', { name: 'Coming soon mode' }).textContent).toContain(COMING_SOON_TEXT);
    expect(screen.getByRole('button', { name: 'Dismiss' }).getAttribute('data-rest-url')).toBe('/wp-json/wp/v2/users/4');
  });

  it('hides at once and writes the dismissal as a PUT sent as POST, with the nonce header', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<ComingSoonBanner />);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Coming soon mode' })).toBeNull();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0]! as unknown as [string, RequestInit];
    expect(url).toBe('/wp-json/wp/v2/users/4');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ 'X-WP-Nonce': 'n0nce', 'X-HTTP-Method-Override': 'PUT' });
    expect(JSON.parse(String(init.body))).toEqual({ woocommerce_meta: { coming_soon_banner_dismissed: 'yes' } });
  });

  it('is not there for anyone else, and takes only the shop’s own address', () => {
    applyRenderSettings({ ...DEFAULT_SETTINGS, coming_soon: null });
    renderWithApp(<ComingSoonBanner />);
    expect(screen.queryByRole('region', { name: 'Coming soon mode' })).toBeNull();
    expect(parseSettings(JSON.stringify({ coming_soon: { rest_url: 'https://evil.example/x', nonce: 'n' } })).coming_soon).toBeNull();
    expect(parseSettings(JSON.stringify({ coming_soon: { rest_url: '/wp-json/wp/v2/users/4', nonce: 'n' } })).coming_soon).toEqual({ rest_url: '/wp-json/wp/v2/users/4', nonce: 'n' });
  });
});

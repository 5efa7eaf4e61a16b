import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyRenderSettings, DEFAULT_SETTINGS, settings } from '@/config/settings';
import { resetNonce } from '@/lib/api-client';
import { jsonResponse } from '@/test/render';
import { FAILED_MESSAGE, NEWSLETTER_ACTION, OFFLINE_MESSAGE, signUpForNewsletter, type SignUp } from './sign-up-for-newsletter';

const SIGNED_UP = 'Thank you! Please check your inbox: we have sent you an e-mail to confirm your subscription.';

const ada: SignUp = { email: ' ada@example.test ', name: 'Ada', consent: true, source: 'footer' };

const html = (body: string, status = 200) => new Response(body, { status, headers: { 'Content-Type': 'text/html; charset=utf-8' } });

interface Sent {
  url: string;
  init: RequestInit;
  body: FormData | null;
}

/** Stands in for the shop: sign-ups answered by `answer`, the cart with the session's `nonce`. */
function shop(answer: (body: FormData) => Response | Promise<Response>, { nonce = 'nonce-1' } = {}) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      const body = init.body instanceof FormData ? init.body : null;
      sent.push({ url, init, body });
      if (url === NEWSLETTER_ACTION && init.method === 'POST') return answer(body!);
      if (url === '/wp-json/wc/store/v1/cart') return jsonResponse({}, { headers: { Nonce: nonce } });
      throw new Error(`Unexpected request: ${init.method ?? 'GET'} ${url}`);
    }),
  );
  return { sent, signUps: () => sent.filter((call) => call.url === NEWSLETTER_ACTION) };
}

describe('signing up for the newsletter', () => {
  const before = { ...settings };
  beforeEach(() => {
    applyRenderSettings({ ...DEFAULT_SETTINGS, store_api_nonce: 'nonce-1' });
    resetNonce();
  });
  afterEach(() => {
    applyRenderSettings(before);
    resetNonce();
    vi.unstubAllGlobals();
  });

  it('posts the plugin’s fields as multipart form data, with the session’s nonce, to its address', async () => {
    const { sent } = shop(() => html(`<p>${SIGNED_UP}</p>`));
    await signUpForNewsletter(ada);
    const [{ url, init, body }] = sent as [Sent];
    expect(url).toBe('/wp-admin/admin-ajax.php?action=tnp&na=sa');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    // The browser writes the boundary.
    expect(new Headers(init.headers).has('Content-Type')).toBe(false);
    expect(Object.fromEntries(body!.entries())).toEqual({ ne: 'ada@example.test', nn: 'Ada', ny: '1', nr: 'footer', _wpnonce: 'nonce-1' });
  });

  it('leaves out an empty name and a consent not given, and keeps the request alive when asked', async () => {
    const { sent } = shop(() => html('<p>Please accept the privacy policy to subscribe.</p>', 400));
    await signUpForNewsletter({ email: 'ada@example.test', name: ' ', consent: false, source: 'checkout' }, { keepalive: true });
    const [{ init, body }] = sent as [Sent];
    expect([...body!.keys()].sort()).toEqual(['_wpnonce', 'ne', 'nr']);
    expect(body!.get('nr')).toBe('checkout');
    expect(init.keepalive).toBe(true);
  });

  it('answers the reply’s text on success, its tags and entities gone', async () => {
    shop(() => html(`<p>Thank you! Please check your inbox: we&#39;ve sent you an e-mail <b>to confirm</b>.</p>`));
    expect(await signUpForNewsletter(ada)).toEqual({ ok: true, status: 200, message: "Thank you! Please check your inbox: we've sent you an e-mail to confirm." });
  });

  it('keeps a refusal’s own message: a bad address, too many sign-ups', async () => {
    shop(() => html('<p>Please enter a valid e-mail address.</p>', 400));
    expect(await signUpForNewsletter(ada)).toEqual({ ok: false, status: 400, message: 'Please enter a valid e-mail address.' });
    shop(() => html('<p>Too many sign-ups. Please try again in 59 minutes.</p>', 429));
    expect(await signUpForNewsletter(ada)).toEqual({ ok: false, status: 429, message: 'Too many sign-ups. Please try again in 59 minutes.' });
  });

  it('says the shopper is probably offline when no answer comes', async () => {
    shop(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await signUpForNewsletter(ada)).toEqual({ ok: false, status: 0, message: OFFLINE_MESSAGE });
    expect(OFFLINE_MESSAGE).toBe('You are probably offline.');
  });

  it('never shows a whole page or an empty answer, not even a 200 one', async () => {
    shop(() => html('<!doctype html><html><head><title>502</title></head><body>Bad gateway</body></html>', 502));
    expect(await signUpForNewsletter(ada)).toEqual({ ok: false, status: 502, message: FAILED_MESSAGE });
    shop(() => html(''));
    expect(await signUpForNewsletter(ada)).toEqual({ ok: false, status: 200, message: FAILED_MESSAGE });
  });

  it('sends once more with the session’s new nonce when the server no longer takes the old one', async () => {
    const { sent, signUps } = shop((body) => (body.get('_wpnonce') === 'nonce-2' ? html(`<p>${SIGNED_UP}</p>`) : html('<p>This form has expired.</p>', 403)), {
      nonce: 'nonce-2',
    });
    expect(await signUpForNewsletter(ada)).toMatchObject({ ok: true, message: SIGNED_UP });
    expect(sent.map((call) => call.url)).toEqual([NEWSLETTER_ACTION, '/wp-json/wc/store/v1/cart', NEWSLETTER_ACTION]);
    expect(signUps().map((call) => call.body!.get('_wpnonce'))).toEqual(['nonce-1', 'nonce-2']);
  });

  it('does not send again when the nonce is still the same', async () => {
    const { signUps } = shop(() => html('<p>This form has expired. Please reload the page and try again.</p>', 403));
    expect(await signUpForNewsletter(ada)).toEqual({ ok: false, status: 403, message: 'This form has expired. Please reload the page and try again.' });
    expect(signUps()).toHaveLength(1);
  });
});

import { screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyRenderSettings, DEFAULT_SETTINGS, settings } from '@/config/settings';
import { resetNonce } from '@/lib/api-client';
import { fireEvent, setValue } from '@/test/events';
import { renderWithApp } from '@/test/render';
import { CONSENT_TEXT, INVALID_EMAIL, NewsletterForm, NO_CONSENT } from './newsletter-form';

const SIGNED_UP = 'Thank you! Please check your inbox: we have sent you an e-mail to confirm your subscription.';

const html = (body: string, status = 200) => new Response(body, { status, headers: { 'Content-Type': 'text/html; charset=utf-8' } });

/** The sign-up call answered by `answer`; every body sent is kept. */
function signUps(answer: () => Response | Promise<Response>) {
  const sent: FormData[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) => {
      sent.push(init.body as FormData);
      return answer();
    }),
  );
  return sent;
}

const form = () => screen.getByRole('form', { name: 'Newsletter sign-up' });
const email = () => screen.getByLabelText('Your e-mail address') as HTMLInputElement;
const consent = () => screen.getByRole('checkbox', { name: CONSENT_TEXT }) as HTMLInputElement;
const subscribe = () => screen.getByRole('button', { name: 'Subscribe' });

/** Renders the form and waits until it runs (its own checks taking over from the browser's). */
async function renderForm() {
  renderWithApp(<NewsletterForm source="footer" />);
  await waitFor(() => expect((form() as HTMLFormElement).noValidate).toBe(true));
}

describe('the newsletter form', () => {
  const before = { ...settings };
  beforeEach(() => {
    applyRenderSettings({ ...DEFAULT_SETTINGS, store_api_nonce: 'visitor-nonce' });
    resetNonce();
  });
  afterEach(() => {
    applyRenderSettings(before);
    resetNonce();
    vi.unstubAllGlobals();
  });

  it('is the plugin’s plain form too: its address, multipart, the fields it posts and the visitor’s nonce', async () => {
    await renderForm();
    const element = form() as HTMLFormElement;
    expect(element.getAttribute('action')).toBe('/wp-admin/admin-ajax.php?action=tnp&na=sa');
    expect(element.getAttribute('method')).toBe('post');
    expect(element.getAttribute('enctype')).toBe('multipart/form-data');
    expect(email().name).toBe('ne');
    expect(email().type).toBe('email');
    expect(email().required).toBe(true);
    expect(consent().name).toBe('ny');
    expect(consent().value).toBe('1');
    expect(consent().required).toBe(true);
    expect(element.querySelector<HTMLInputElement>('input[name="nr"]')?.value).toBe('footer');
    expect(element.querySelector<HTMLInputElement>('input[name="_wpnonce"]')?.value).toBe('visitor-nonce');
  });

  it('will not send without the consent box, and says why at the box', async () => {
    const sent = signUps(() => html(`<p>${SIGNED_UP}</p>`));
    await renderForm();
    setValue(email(), 'ada@example.test');
    fireEvent.click(subscribe());
    await screen.findByText(NO_CONSENT);
    expect(consent().getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(consent().getAttribute('aria-describedby')!)?.textContent).toBe(NO_CONSENT);
    expect(document.activeElement).toBe(consent());
    expect(sent).toHaveLength(0);

    // Ticked, the message goes.
    fireEvent.click(consent());
    await waitFor(() => expect(screen.queryByText(NO_CONSENT)).toBeNull());
    expect(consent().hasAttribute('aria-invalid')).toBe(false);
  });

  it('will not send without an address', async () => {
    const sent = signUps(() => html(`<p>${SIGNED_UP}</p>`));
    await renderForm();
    fireEvent.click(consent());
    fireEvent.click(subscribe());
    await screen.findByText(INVALID_EMAIL);
    expect(email().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(email());
    expect(sent).toHaveLength(0);
  });

  it('is replaced by the server’s reply, as text, which takes the focus', async () => {
    let answer!: (response: Response) => void;
    const sent = signUps(() => new Promise<Response>((resolve) => (answer = resolve)));
    await renderForm();
    setValue(email(), 'ada@example.test');
    fireEvent.click(consent());
    fireEvent.click(subscribe());
    // Busy while the sign-up is on its way; a second press sends nothing.
    await waitFor(() => expect(subscribe().getAttribute('aria-busy')).toBe('true'));
    fireEvent.click(subscribe());
    expect(sent).toHaveLength(1);
    expect(Object.fromEntries(sent[0]!.entries())).toEqual({ ne: 'ada@example.test', ny: '1', nr: 'footer', _wpnonce: 'visitor-nonce' });

    answer(html(`<p>${SIGNED_UP}<script>alert(1)</script></p>`));
    const reply = await screen.findByRole('status');
    expect(reply.textContent).toBe(`${SIGNED_UP}alert(1)`);
    expect(reply.querySelector('script')).toBeNull();
    expect(screen.queryByRole('form', { name: 'Newsletter sign-up' })).toBeNull();
    expect(document.activeElement).toBe(reply);
  });

  it('keeps the form and the address on a refusal, with the reply under it and the address marked', async () => {
    signUps(() => html('<p>Please enter a valid e-mail address.</p>', 400));
    await renderForm();
    setValue(email(), 'ada@example');
    fireEvent.click(consent());
    fireEvent.click(subscribe());
    await screen.findByText(INVALID_EMAIL);
    expect(form()).toBeTruthy();
    expect(email().value).toBe('ada@example');
    expect(email().getAttribute('aria-invalid')).toBe('true');
    expect(consent().checked).toBe(true);
    expect(subscribe().getAttribute('aria-busy')).toBe('false');
  });

  it('keeps the form when too many sign-ups are refused, and when no answer comes', async () => {
    signUps(() => html('<p>Too many sign-ups. Please try again in 59 minutes.</p>', 429));
    await renderForm();
    setValue(email(), 'ada@example.test');
    fireEvent.click(consent());
    fireEvent.click(subscribe());
    await screen.findByText('Too many sign-ups. Please try again in 59 minutes.');
    expect(email().hasAttribute('aria-invalid')).toBe(false);

    signUps(() => Promise.reject(new TypeError('Failed to fetch')));
    fireEvent.click(subscribe());
    await screen.findByText('You are probably offline.');
    expect(email().value).toBe('ada@example.test');
  });
});

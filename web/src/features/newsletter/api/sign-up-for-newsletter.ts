// POST /wp-admin/admin-ajax.php?action=tnp&na=sa: signs an address up for the
// newsletter, as multipart form data (`ne` the address, `nn` the name, `ny` the
// consent box, `nr` where the form is, `_wpnonce` the session's nonce). The server
// answers with a short piece of HTML that takes the form's place; only its text is
// ever shown. A nonce the server no longer takes (the session changed: an account
// created at checkout) is fetched afresh and the sign-up sent once more. Every
// outcome is a message to show, so this never throws.
import { useMutation } from '@tanstack/react-query';
import { settings } from '@/config/settings';
import { currentNonce, storeApiGet } from '@/lib/api-client';
import { htmlToText } from '@/lib/html-text';

export const NEWSLETTER_ACTION = '/wp-admin/admin-ajax.php?action=tnp&na=sa';

export const OFFLINE_MESSAGE = 'You are probably offline.';
export const FAILED_MESSAGE = 'Something went wrong. Please try again later.';

/** Where a sign-up comes from, as the list keeps it. */
export type SignUpSource = 'footer' | 'checkout';

export interface SignUp {
  email: string;
  /** Optional: the subscriber's first name. */
  name?: string;
  /** The consent box: without it the server refuses the sign-up. */
  consent: boolean;
  source: SignUpSource;
}

export interface SignUpReply {
  /** True when the address is signed up (and a confirmation mail is on its way). */
  ok: boolean;
  /** The HTTP status; 0 when no answer came. */
  status: number;
  /** Plain text, ready to show. */
  message: string;
}

/** The session's nonce as it stands now (the page's own, kept fresh by every Store API answer). */
export const sessionNonce = () => currentNonce() ?? settings.store_api_nonce;

export function signUpPayload({ email, name, consent, source }: SignUp, nonce: string): FormData {
  const payload = new FormData();
  payload.set('ne', email.trim());
  if (name?.trim()) payload.set('nn', name.trim());
  if (consent) payload.set('ny', '1');
  payload.set('nr', source);
  payload.set('_wpnonce', nonce);
  return payload;
}

/** The text of the server's answer; a whole page (a proxy's error page) is not an answer. */
function replyText(body: string): string {
  return /<(html|body|head)[\s>]/i.test(body) ? '' : htmlToText(body);
}

/**
 * Sends the sign-up. `keepalive` lets it finish while the page moves on (the checkout
 * sends it as the shopper leaves for the order's page).
 */
export async function signUpForNewsletter(signUp: SignUp, { keepalive = false }: { keepalive?: boolean } = {}): Promise<SignUpReply> {
  // The browser writes the multipart boundary: no Content-Type of ours.
  const post = () =>
    fetch(NEWSLETTER_ACTION, {
      method: 'POST',
      body: signUpPayload(signUp, sessionNonce()),
      credentials: 'same-origin',
      headers: { Accept: 'text/html' },
      keepalive,
    });
  let response: Response;
  try {
    response = await post();
    if (response.status === 403) {
      // Any Store API answer carries the session's current nonce.
      const refused = sessionNonce();
      await storeApiGet('/cart').catch(() => undefined);
      if (sessionNonce() !== refused) response = await post();
    }
  } catch {
    return { ok: false, status: 0, message: OFFLINE_MESSAGE };
  }
  const text = replyText(await response.text().catch(() => ''));
  return { ok: response.ok && text !== '', status: response.status, message: text || FAILED_MESSAGE };
}

export function useSignUpForNewsletter() {
  return useMutation({ mutationFn: (signUp: SignUp) => signUpForNewsletter(signUp) });
}

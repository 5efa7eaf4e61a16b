// The newsletter sign-up form: an e-mail address, the consent box and a Subscribe
// button. The page arrives with it rendered, and without scripts it posts as the
// original plugin's plain form (the server's nonce slot fills in the visitor's own
// nonce). Once the page runs it is sent in the background: the server's reply takes
// the form's place, and a refusal (a bad address, too many sign-ups) keeps the form
// with the reply under it, so the shopper can put it right.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Icon } from '@/components/ui/icon';
import { Spinner } from '@/components/ui/spinner';
import { SESSION_NONCE_SLOT } from '@/lib/session-nonce';
import { NEWSLETTER_ACTION, sessionNonce, useSignUpForNewsletter, type SignUpSource } from '../api/sign-up-for-newsletter';
import styles from './newsletter-form.module.css';

// The server's own words for the same refusals.
export const INVALID_EMAIL = 'Please enter a valid e-mail address.';
export const NO_CONSENT = 'Please accept the privacy policy to subscribe.';

export const CONSENT_TEXT = 'I agree to receive the newsletter and accept the privacy policy.';

type Field = 'email' | 'consent';

export interface Problem {
  /** The field at fault, marked and focused; null for a refusal of the whole form. */
  field: Field | null;
  message: string;
}

/** What the form can tell before sending: an address of some shape, and the box ticked. */
export function checkSignUp(email: string, consent: boolean): Problem | null {
  if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) return { field: 'email', message: INVALID_EMAIL };
  if (!consent) return { field: 'consent', message: NO_CONSENT };
  return null;
}

export function NewsletterForm({ source = 'footer' }: { source?: SignUpSource }) {
  const id = `newsletter-${source}`;
  const ids = { email: `${id}-email`, consent: `${id}-consent`, message: `${id}-message` };
  const signUp = useSignUpForNewsletter();
  // The browser's own checks stand until the page runs; then the form's own take over.
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [reply, setReply] = useState<string | null>(null);
  const replyRef = useRef<HTMLParagraphElement>(null);
  // A second press while the first sign-up is on its way sends nothing.
  const sending = useRef(false);

  useEffect(() => setRunning(true), []);

  // The button that had the focus is gone with the form: the reply takes it.
  useEffect(() => {
    if (reply !== null) replyRef.current?.focus();
  }, [reply]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending.current) return;
    const fields = new FormData(event.currentTarget);
    const email = String(fields.get('ne') ?? '');
    const consent = fields.get('ny') !== null;
    const refused = (found: Problem) => {
      setProblem(found);
      if (found.field) document.getElementById(ids[found.field])?.focus();
    };
    const found = checkSignUp(email, consent);
    if (found) {
      refused(found);
      return;
    }
    setProblem(null);
    sending.current = true;
    const answer = await signUp.mutateAsync({ email, consent, source }).finally(() => {
      sending.current = false;
    });
    if (answer.ok) setReply(answer.message);
    // The box was ticked: a 400 is about the address.
    else refused({ field: answer.status === 400 ? 'email' : null, message: answer.message });
  }

  if (reply !== null) {
    return (
      <p ref={replyRef} tabIndex={-1} role="status" className={styles.reply} data-testid="newsletter-reply">
        <Icon name="check" size={20} className={styles.replyIcon} />
        <span>{reply}</span>
      </p>
    );
  }

  const invalid = (field: Field) =>
    problem?.field === field ? { 'aria-invalid': true as const, 'aria-describedby': ids.message } : {};
  // Putting the field right takes its message away.
  const clear = (field: Field) => {
    if (problem?.field === field) setProblem(null);
  };
  const pending = signUp.isPending;

  return (
    <form
      method="post"
      action={NEWSLETTER_ACTION}
      encType="multipart/form-data"
      className={styles.form}
      aria-label="Newsletter sign-up"
      noValidate={running}
      onSubmit={(event) => void onSubmit(event)}
    >
      {/* The visitor's own nonce, for the form without scripts: a page rendered on the
          server may be sent to many visitors, so the server puts each one's nonce in
          its slot as it sends the page. */}
      <input type="hidden" name="_wpnonce" value={import.meta.env.SSR ? SESSION_NONCE_SLOT : sessionNonce()} />
      <input type="hidden" name="nr" value={source} />
      <label htmlFor={ids.email} className={styles.label}>
        Your e-mail address
      </label>
      <div className={styles.row}>
        <input
          id={ids.email}
          className={styles.input}
          type="email"
          name="ne"
          autoComplete="email"
          placeholder="you@example.com"
          required
          onInput={() => clear('email')}
          {...invalid('email')}
        />
        <button type="submit" className={styles.button} aria-busy={pending}>
          {pending && <Spinner size={16} />}
          Subscribe
        </button>
      </div>
      <label className={styles.consent} htmlFor={ids.consent}>
        <input
          id={ids.consent}
          className={styles.checkbox}
          type="checkbox"
          name="ny"
          value="1"
          required
          onChange={() => clear('consent')}
          {...invalid('consent')}
        />
        <span>{CONSENT_TEXT}</span>
      </label>
      <p id={ids.message} className={styles.message} aria-live="polite">
        {problem?.message}
      </p>
    </form>
  );
}

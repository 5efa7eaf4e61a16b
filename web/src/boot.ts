// The page's first script: the shop's global styles, then the app once the page has
// painted. The server sends each page rendered, so the shopper reads it at once; the
// app's code follows and takes over the page without changing it.
//
// A form sent before the app has taken over is held and sent again once it has
// (pressing its button again, so the app's own handler runs): the page's forms are
// the app's, and most of them mean nothing to the server as plain form posts. If the
// app never starts, the hold ends and forms post as plain forms.
import './styles/tokens.css';
import './styles/base.css';

/** Sent by the app once it has hydrated (see app/layout/app-layout.tsx). */
const APP_READY_EVENT = 'ferroshop:ready';
const GIVE_UP_MS = 15_000;

let held: { form: HTMLFormElement; submitter: HTMLElement | null } | null = null;

function hold(event: SubmitEvent) {
  if (!(event.target instanceof HTMLFormElement)) return;
  event.preventDefault();
  held = { form: event.target, submitter: event.submitter };
}

function release(replay: boolean) {
  document.removeEventListener('submit', hold, true);
  const form = held;
  held = null;
  if (!replay || !form || !form.form.isConnected) return;
  if (form.submitter?.isConnected) form.submitter.click();
  else form.form.requestSubmit();
}

document.addEventListener('submit', hold, true);
document.addEventListener(APP_READY_EVENT, () => release(true), { once: true });
setTimeout(() => release(false), GIVE_UP_MS);

function start() {
  import('./main').catch(() => release(false));
}

if (document.visibilityState === 'visible') {
  // After the next frame: the page paints before the app's code is fetched.
  requestAnimationFrame(() => setTimeout(start, 0));
} else {
  start();
}

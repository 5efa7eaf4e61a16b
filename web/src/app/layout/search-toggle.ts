// Whether the phone's search form is open. Below 768 px the header keeps its search
// folded away and the footer bar's Search button opens it; the two live in different
// parts of the page, so the state lives here.
import { useSyncExternalStore } from 'react';

/** The header's search form, which the footer bar's button controls. */
export const SEARCH_FORM_ID = 'site-search';
/** The footer bar's Search button, where focus returns when the search closes. */
export const SEARCH_TOGGLE_ID = 'footer-bar-search';

let open = false;
const listeners = new Set<() => void>();

export function setSearchOpen(value: boolean): void {
  if (open === value) return;
  open = value;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Open or not; always closed on the server (nobody has pressed anything there). */
export function useSearchOpen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => open,
    () => false,
  );
}

/**
 * Opens the search and puts the cursor in it, within the tap: a phone raises its
 * keyboard only for a field focused while handling the tap, so the form is shown at
 * once (the attribute the next render will write anyway) rather than after a render.
 */
export function openSearchAndFocus(): void {
  const form = document.getElementById(SEARCH_FORM_ID);
  if (form) form.dataset.open = 'true';
  setSearchOpen(true);
  form?.querySelector<HTMLInputElement>('input[type="search"]')?.focus();
}

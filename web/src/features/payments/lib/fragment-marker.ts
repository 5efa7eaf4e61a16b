// The little of the payment return fragments a payment page needs before there is one
// to handle (confirm-fragment.ts reads them, and loads only then): whether an
// address's fragment looks like one, and taking one out of the page's address.

/** The start of the four kinds: `#wc-stripe-{confirm,voucher,wallet}-…` and `#confirm-{pi,si}-…`. */
export const RETURN_FRAGMENT_START = /^#?(?:wc-stripe-(?:confirm|voucher|wallet)-|confirm-(?:pi|si)-)/;

/** The fragment of an address (or of a bare `#…`), without its `#`; null without one. */
export function fragmentOf(url: string): string | null {
  const at = url.indexOf('#');
  return at < 0 ? null : url.slice(at + 1);
}

/** Whether an address's fragment looks like a payment return fragment (the parse decides whether it is one). */
export function looksLikeReturnFragment(url: string): boolean {
  const fragment = fragmentOf(url);
  return fragment !== null && RETURN_FRAGMENT_START.test(fragment);
}

/**
 * Takes a return fragment out of the page's address (and so out of its history
 * entry), keeping the path, the query and the router's own state: reloading or going
 * back to the page does not handle the payment again. Other fragments are left.
 */
export function removeReturnFragment(): void {
  if (typeof window === 'undefined' || !looksLikeReturnFragment(window.location.hash)) return;
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
}

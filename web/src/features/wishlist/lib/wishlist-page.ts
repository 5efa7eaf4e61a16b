// The wishlist page's rules that need no page: which page of the list the address
// asks for, the date an item was added as the shop writes it, a variation's
// description, and whether a bulk action may go.

/** `?wl_paged=N`, 1 when absent or not a page number. */
export function pageFromSearch(search: string): number {
  const page = Number.parseInt(new URLSearchParams(search).get('wl_paged') ?? '', 10);
  return Number.isFinite(page) && page > 1 ? page : 1;
}

/** The address of another page of the list (page 1 has no query). */
export function pageAddress(pathname: string, page: number): string {
  return page > 1 ? `${pathname}?wl_paged=${page}` : pathname;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2026-11-29T10:00:00" (site time) → "November 29, 2026", the same on the server and in any browser's zone. */
export function formatAddedDate(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!match) return iso;
  const month = MONTHS[Number(match[2]) - 1];
  return month ? `${month} ${Number(match[3])}, ${match[1]}` : iso;
}

/** The date part, for `<time datetime>`. */
export const addedDateTime = (iso: string) => iso.replace('T', ' ');

export function variationText(variation: { attribute: string; value: string }[]): string {
  return variation.map(({ attribute, value }) => `${attribute}: ${value}`).join(', ');
}

export type BulkChoice = '' | 'add_to_cart_selected' | 'remove_selected';

/** The original's `tinvwl_break_submit`: nothing ticked, or Apply with no action chosen. */
export function bulkBlocked(ticked: number, action: BulkChoice | null): boolean {
  return ticked === 0 || action === '';
}

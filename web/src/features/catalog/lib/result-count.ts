// The catalogue's result count, worded exactly as the original shop words it.

export const NO_PRODUCTS_FOUND = 'No products were found matching your selection.';

export function resultCountText({ total, perPage, page }: { total: number; perPage: number; page: number }): string {
  if (total <= 0) return NO_PRODUCTS_FOUND;
  if (total === 1) return 'Showing the single result';
  if (perPage <= 0 || total <= perPage) return `Showing all ${total} results`;
  const first = (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  return `Showing ${first}\u2013${last} of ${total} results`;
}

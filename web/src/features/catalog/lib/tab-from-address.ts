// Which product tab an address opens, by the original shop's rules: the reviews tab
// when the hash holds a comment marker (#comment-12), is #reviews or #tab-reviews, or
// the address pages the reviews (comment-page-N, ?cpage=N); #tab-additional_information
// opens that tab (#tab-{id} any tab); anything else the first.

export function tabFromAddress(tabIds: string[], { hash, href }: { hash: string; href: string }): string {
  const has = (id: string) => tabIds.includes(id);
  const marker = hash.toLowerCase();
  if (has('reviews') && (marker.includes('comment-') || marker === '#reviews' || marker === '#tab-reviews')) return 'reviews';
  if (has('reviews') && (/comment-page-\d/.test(href) || /[?&]cpage=/.test(href))) return 'reviews';
  const named = marker.startsWith('#tab-') ? marker.slice('#tab-'.length) : '';
  if (named && has(named)) return named;
  return tabIds[0] ?? '';
}

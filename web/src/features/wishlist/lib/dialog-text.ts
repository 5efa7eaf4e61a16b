// The server's dialog HTML (`msg`, the original's `ti-addedtowishlist-dialogbox`) read
// for what it says: the lines of its `.tinv-txt` (messages joined by <br>) and where
// its "View Wishlist" button goes. The storefront draws its own dialog with them, so
// no markup of the answer reaches the page.
import { decodeEntities, htmlToText } from '@/lib/html-text';

export function dialogLines(html: string | undefined): string[] {
  if (!html) return [];
  const text = /<div class="tinv-txt">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? (html.includes('tinv-modal') ? '' : html);
  return text
    .split(/<br\s*\/?>/i)
    .map(htmlToText)
    .filter(Boolean);
}

/** The "View Wishlist" button's address, if the dialog has one. */
export function dialogViewUrl(html: string | undefined): string | null {
  const url = html ? /class="[^"]*tinvwl_button_view[^"]*"[^>]*data-url="([^"]*)"|data-url="([^"]*)"[^>]*class="[^"]*tinvwl_button_view/.exec(html) : null;
  const found = url?.[1] ?? url?.[2];
  return found ? decodeEntities(found) : null;
}

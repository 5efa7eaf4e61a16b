// Where the wishlist's dialogs open: a root of their own at the end of the page, made
// on first use (they open from a click, never with the page).
import type { ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

let root: Root | null = null;

/** Shows `content` (null closes whatever is open). */
export function showInHost(content: ReactNode) {
  if (!root) {
    const element = document.createElement('div');
    element.className = 'wishlist-dialogs';
    document.body.append(element);
    root = createRoot(element);
  }
  root.render(content);
}

// Whether a media query matches, kept up to date as the window changes; null while
// the answer is not known (on the server and while hydrating), when the page must
// render the same for every screen and leave the choice to the stylesheet.
import { useSyncExternalStore } from 'react';

export function useMediaQueryOnceKnown(query: string): boolean | null {
  return useSyncExternalStore<boolean | null>(
    (onChange) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    () => window.matchMedia?.(query).matches ?? false,
    () => null,
  );
}

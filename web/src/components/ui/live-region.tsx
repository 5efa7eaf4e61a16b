// The page's single polite live region; lib/screen-reader.ts decides what it says and when.
import { useSyncExternalStore } from 'react';
import { currentAnnouncement, subscribeToAnnouncements } from '@/lib/screen-reader';

export function LiveRegion() {
  const message = useSyncExternalStore(subscribeToAnnouncements, currentAnnouncement, () => '');
  return (
    <div id="a11y-speak-polite" className="visually-hidden" aria-live="polite" aria-relevant="additions text" aria-atomic="true">
      {message}
    </div>
  );
}

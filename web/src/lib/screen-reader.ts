// Messages for screen readers, read out through one polite live region
// (components/ui/live-region.tsx). Like the original shop, a message is spoken
// one second after it is requested: the region is emptied first so the same
// message announced twice is read twice, and the delay lets focus changes settle.

export const ANNOUNCE_DELAY_MS = 1000;

type Listener = () => void;

let current = '';
let pending: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<Listener>();

function set(message: string) {
  current = message;
  for (const listener of listeners) listener();
}

export function announce(message: string): void {
  clearTimeout(pending);
  set('');
  pending = setTimeout(() => set(message), ANNOUNCE_DELAY_MS);
}

export function currentAnnouncement(): string {
  return current;
}

export function subscribeToAnnouncements(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

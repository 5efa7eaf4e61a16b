// Closes a popup (menu, mini-cart) on a click or tap outside it and on Escape.
// The caller decides what Escape does with focus (usually: back to the toggle).
import { useLayoutEffect, useRef, type RefObject } from 'react';

export function useDismiss(
  open: boolean,
  container: RefObject<HTMLElement | null>,
  onDismiss: (reason: 'outside' | 'escape') => void,
) {
  // The latest callback, without re-subscribing on every render.
  const callback = useRef(onDismiss);
  callback.current = onDismiss;

  // Listening from the moment the popup is shown (an effect would wait for the next
  // frame, and an Escape pressed at once would be lost).
  useLayoutEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (container.current && !container.current.contains(event.target as Node)) callback.current('outside');
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') callback.current('escape');
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open, container]);
}

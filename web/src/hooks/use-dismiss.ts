// Closes a popup (menu, mini-cart) on a click or tap outside it and on Escape.
// The caller decides what Escape does with focus (usually: back to the toggle).
import { useEffect, useRef, type RefObject } from 'react';

export function useDismiss(
  open: boolean,
  container: RefObject<HTMLElement | null>,
  onDismiss: (reason: 'outside' | 'escape') => void,
) {
  // The latest callback, without re-subscribing on every render.
  const callback = useRef(onDismiss);
  callback.current = onDismiss;

  useEffect(() => {
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

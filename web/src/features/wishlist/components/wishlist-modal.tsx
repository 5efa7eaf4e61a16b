// A modal dialog of the wishlist's own (the add answer's message, the list chooser):
// labelled by its heading, the focus kept inside while it is open, Escape and the
// backdrop close it, and the focus goes back where it was.
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import styles from './wishlist-modal.module.css';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function WishlistModal({
  labelledBy,
  onClose,
  children,
  role = 'dialog',
}: {
  labelledBy: string;
  onClose: () => void;
  children: ReactNode;
  role?: 'dialog' | 'alertdialog';
}) {
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = panel.current;
    const before = document.activeElement as HTMLElement | null;
    // The page behind is out of reach (and of assistive technology) while the dialog is open.
    const page = document.getElementById('root');
    page?.setAttribute('inert', '');
    (element?.querySelector<HTMLElement>('[data-autofocus]') ?? element?.querySelector<HTMLElement>(FOCUSABLE) ?? element)?.focus();
    return () => {
      page?.removeAttribute('inert');
      if (before?.isConnected) before.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const focusable = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (focusable.length === 0) {
      event.preventDefault();
      return;
    }
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    if (event.shiftKey && (document.activeElement === first || document.activeElement === panel.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className={styles.backdrop} onClick={onClose}>
      <div
        ref={panel}
        className={styles.panel}
        role={role}
        aria-modal="true"
        aria-labelledby={labelledBy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        onClick={(event) => event.stopPropagation()}
      >
        {children}
      </div>
    </div>
  );
}

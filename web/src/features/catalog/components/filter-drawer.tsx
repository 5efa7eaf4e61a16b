// On phones the filter panel opens from a "Filters" button as a modal dialog: the
// browser keeps focus inside it, Escape closes it and focus goes back to the button.
// Choices apply as they are made; "Show results" just closes it.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Icon } from '@/components/ui/icon';
import styles from './filter-panel.module.css';

export function FilterDrawer({ active, children }: { active: number; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    } else if (!open && element.open) {
      if (typeof element.close === 'function') element.close();
      else element.removeAttribute('open');
    }
  }, [open]);

  return (
    <>
      <button
        ref={button}
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls="catalog-filters"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <Icon name="menu" size={18} />
        <span>Filters</span>
        {active > 0 && (
          <span className={styles.badge}>
            {active}
            <span className="visually-hidden"> active</span>
          </span>
        )}
      </button>
      <dialog
        ref={dialog}
        id="catalog-filters"
        className={styles.drawer}
        aria-labelledby="catalog-filters-title"
        onClose={() => {
          setOpen(false);
          button.current?.focus();
        }}
      >
        <div className={styles.drawerHeader}>
          <h2 id="catalog-filters-title" className={styles.drawerTitle}>
            Filters
          </h2>
          <button type="button" className={styles.close} onClick={() => setOpen(false)} aria-label="Close filters">
            <Icon name="close" size={20} />
          </button>
        </div>
        <div className={styles.drawerBody}>{children}</div>
        <div className={styles.drawerFooter}>
          <button type="button" className={styles.done} onClick={() => setOpen(false)}>
            Show results
          </button>
        </div>
      </dialog>
    </>
  );
}

// Description and "Additional information" as simple tabs. The address hash
// #tab-additional_information opens that tab, anything else the first.
// (Reviews and the full hash rules come with the product-page stage.)
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import styles from './product-tabs.module.css';

export interface ProductTab {
  id: string;
  title: string;
  content: ReactNode;
}

function initialTab(tabs: ProductTab[]): string {
  const hash = typeof window === 'undefined' ? '' : window.location.hash.replace('#', '');
  return tabs.find((tab) => `tab-${tab.id}` === hash)?.id ?? tabs[0]?.id ?? '';
}

export function ProductTabs({ tabs }: { tabs: ProductTab[] }) {
  const [active, setActive] = useState(() => initialTab(tabs));
  if (tabs.length === 0) return null;

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = tabs[(index + step + tabs.length) % tabs.length]!;
    setActive(next.id);
    document.getElementById(`tab-title-${next.id}`)?.focus();
  }

  return (
    <div className={styles.tabs}>
      <div role="tablist" aria-label="Product details" className={styles.list}>
        {tabs.map((tab, index) => (
          <button
            key={tab.id}
            id={`tab-title-${tab.id}`}
            type="button"
            role="tab"
            aria-selected={tab.id === active}
            aria-controls={`tab-${tab.id}`}
            tabIndex={tab.id === active ? 0 : -1}
            className={styles.tab}
            onClick={() => setActive(tab.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab.title}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          id={`tab-${tab.id}`}
          role="tabpanel"
          aria-labelledby={`tab-title-${tab.id}`}
          hidden={tab.id !== active}
          className={styles.panel}
          tabIndex={0}
        >
          {tab.content}
        </div>
      ))}
    </div>
  );
}

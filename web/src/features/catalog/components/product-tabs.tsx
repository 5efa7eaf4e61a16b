// The product's tabs (description, additional information, reviews) as a WAI-ARIA tab
// list: arrow keys, Home and End move between tabs, and each tab is a link to its
// panel (#tab-{id}) as in the original. The address picks the open tab by the
// original's rules (lib/tab-from-address.ts), on arrival and when the hash changes
// (a "customer reviews" link). The server renders the first tab open (or the reviews
// when the address pages them); without scripts every panel shows, one after another.
import { useEffect, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { tabFromAddress } from '../lib/tab-from-address';
import styles from './product-tabs.module.css';

export interface ProductTab {
  id: string;
  title: string;
  content: ReactNode;
}

/** The tab the address opens; only the query is known when rendering on the server. */
function addressTab(ids: string[], search: string): string {
  if (typeof window === 'undefined') return tabFromAddress(ids, { hash: '', href: search });
  return tabFromAddress(ids, { hash: window.location.hash, href: window.location.href });
}

export function ProductTabs({ tabs, search = '' }: { tabs: ProductTab[]; search?: string }) {
  const ids = tabs.map((tab) => tab.id);
  const key = ids.join(',');
  // The first render matches the server's (no hash there); the hash is read after.
  const [active, setActive] = useState(() => tabFromAddress(ids, { hash: '', href: search }));
  useEffect(() => {
    const ids = key.split(',');
    const follow = () => {
      setActive(addressTab(ids, ''));
      // The hash names something inside a panel that was hidden (#comment-12): once
      // its panel is open, bring it into view.
      const target = window.location.hash.slice(1);
      if (target) requestAnimationFrame(() => document.getElementById(decodeURIComponent(target))?.scrollIntoView());
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [key]);
  if (tabs.length === 0) return null;

  function open(id: string, focus: boolean) {
    setActive(id);
    if (focus) document.getElementById(`tab-title-${id}`)?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLAnchorElement>, index: number) {
    const last = tabs.length - 1;
    const target =
      event.key === 'ArrowRight' ? (index === last ? 0 : index + 1)
      : event.key === 'ArrowLeft' ? (index === 0 ? last : index - 1)
      : event.key === 'Home' ? 0
      : event.key === 'End' ? last
      : event.key === ' ' ? index
      : -1;
    if (target < 0) return;
    event.preventDefault();
    open(tabs[target]!.id, true);
  }

  function onClick(event: MouseEvent<HTMLAnchorElement>, id: string) {
    event.preventDefault();
    open(id, false);
  }

  return (
    <div className="woocommerce-tabs">
      <noscript>
        {/* Without scripts the tabs cannot switch: every panel shows. */}
        <style>{`.${styles.panel}[hidden]{display:block}.${styles.list}{display:none}`}</style>
      </noscript>
      <div role="tablist" aria-label="Product details" className={`tabs wc-tabs ${styles.list}`}>
        {tabs.map((tab, index) => (
          <a
            key={tab.id}
            id={`tab-title-${tab.id}`}
            href={`#tab-${tab.id}`}
            role="tab"
            aria-selected={tab.id === active}
            aria-controls={`tab-${tab.id}`}
            tabIndex={tab.id === active ? 0 : -1}
            className={`${tab.id}_tab ${styles.tab}`}
            onClick={(event) => onClick(event, tab.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab.title}
          </a>
        ))}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          id={`tab-${tab.id}`}
          role="tabpanel"
          aria-labelledby={`tab-title-${tab.id}`}
          hidden={tab.id !== active}
          className={`woocommerce-Tabs-panel woocommerce-Tabs-panel--${tab.id} ${styles.panel}`}
          tabIndex={0}
        >
          {tab.content}
        </div>
      ))}
    </div>
  );
}

// Category navigation. On wide screens a row of links; on phones a "Menu" button
// opens it as a dropdown whose button then reads "Close", and which closes on an
// outside click, on Escape and when a link is followed.
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { NavLink } from '@/components/ui/link';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { topLevelCategories, useCategories } from '@/features/catalog/api/get-categories';
import { useDismiss } from '@/hooks/use-dismiss';
import { htmlToText } from '@/lib/html-text';
import styles from './main-nav.module.css';

const MAX_CATEGORIES = 6;

export function MainNav() {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { pathname, search } = useLocation();
  const { data } = useCategories();
  const categories = topLevelCategories(data).slice(0, MAX_CATEGORIES);

  useDismiss(open, container, (reason) => {
    setOpen(false);
    if (reason === 'escape') button.current?.focus();
  });

  useEffect(() => setOpen(false), [pathname, search]);

  const linkClass = ({ isActive }: { isActive: boolean }) => `${styles.link} ${isActive ? styles.active : ''}`;

  return (
    <nav ref={container} className={styles.nav} aria-label="Primary">
      <button
        ref={button}
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls="primary-menu"
        onClick={() => setOpen((value) => !value)}
      >
        <Icon name={open ? 'close' : 'menu'} size={22} />
        <span>{open ? 'Close' : 'Menu'}</span>
      </button>
      <ul id="primary-menu" className={`${styles.list} ${open ? styles.open : ''}`}>
        <li>
          <NavLink to={paths.shop()} className={linkClass} end>
            Shop all
          </NavLink>
        </li>
        {categories.map((category) => (
          <li key={category.id}>
            <NavLink to={paths.category(category.slug)} className={linkClass}>
              {htmlToText(category.name)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

// The main menu: the top-level categories, each with its subcategories in a dropdown.
// From 1024 px a row of links whose dropdowns open on hover (and close when the
// pointer leaves), when the parent link takes keyboard focus, and with the disclosure
// button beside it (which keeps one open); they close on Escape (focus back on the
// button), an outside click and when focus leaves. Below,
// a "Menu" button opens the whole menu under the header (the button then reads
// "Close"; an outside click, Escape and following a link close it) and each parent's
// button unfolds its subcategories. On a touch screen wider than 767 px the first tap
// on a parent opens its submenu and the second follows the link (see menu.ts).
// Without scripts, hovering or focusing a parent shows its dropdown.
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useLocation } from 'react-router';
import { NavLink } from '@/components/ui/link';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { useCategories } from '@/features/catalog/api/get-categories';
import { useDismiss } from '@/hooks/use-dismiss';
import { htmlToText } from '@/lib/html-text';
import { menuTree, tapAction, type MenuEntry } from './menu';
import styles from './main-nav.module.css';

const MAX_CATEGORIES = 6;
/** Where the menu is a row of links with dropdowns (main-nav.module.css agrees). */
const ROW_QUERY = '(min-width: 1024px)';

const linkClass = ({ isActive }: { isActive: boolean }) => `${styles.link} ${isActive ? styles.active : ''}`;

function menuIsRow(): boolean {
  return window.matchMedia?.(ROW_QUERY).matches ?? false;
}

const submenuId = (entry: MenuEntry) => `submenu-${entry.slug}`;

/** What an item's dropdown may do: open for the pointer resting on it (closing when
 *  it leaves), open to stay (focus, a click on its button, a tap), toggle from its
 *  button, or close. */
interface ItemActions {
  hover: (inside: boolean) => void;
  open: () => void;
  toggle: () => void;
  close: () => void;
}

function MenuItem({ entry, open, actions }: { entry: MenuEntry; open: boolean; actions: ItemActions }) {
  const name = htmlToText(entry.name);
  const hasSubmenu = entry.children.length > 0;
  // The pointer that pressed the link, and whether the submenu was open before it did
  // (pressing the link focuses it, which opens the submenu on wide screens).
  const press = useRef<{ pointerType: string; wasOpen: boolean } | null>(null);

  if (!hasSubmenu) {
    return (
      <li className={styles.item}>
        <NavLink to={paths.category(entry.slug)} className={linkClass}>
          {name}
        </NavLink>
      </li>
    );
  }

  const hover = (event: PointerEvent<HTMLLIElement>, inside: boolean) => {
    if (event.pointerType === 'mouse' && menuIsRow()) actions.hover(inside);
  };

  return (
    <li
      className={`${styles.item} ${styles.parent} ${open ? styles.open : ''}`}
      data-menu-item={entry.slug}
      onPointerEnter={(event) => hover(event, true)}
      onPointerLeave={(event) => hover(event, false)}
      onBlur={(event) => {
        const next = event.relatedTarget as Node | null;
        if (!next || !event.currentTarget.contains(next)) actions.close();
      }}
    >
      <NavLink
        to={paths.category(entry.slug)}
        className={linkClass}
        onFocus={() => {
          if (menuIsRow()) actions.open();
        }}
        onPointerDown={(event) => {
          press.current = { pointerType: event.pointerType, wasOpen: open };
        }}
        onClick={(event) => {
          const pressed = press.current;
          press.current = null;
          const action = tapAction({
            pointerType: pressed?.pointerType ?? null,
            viewportWidth: window.innerWidth,
            hasSubmenu,
            wasOpen: pressed ? pressed.wasOpen : open,
          });
          if (action === 'open') {
            event.preventDefault();
            actions.open();
          }
        }}
      >
        {name}
      </NavLink>
      <button
        type="button"
        className={styles.disclosure}
        aria-expanded={open}
        aria-controls={submenuId(entry)}
        onClick={actions.toggle}
      >
        <Icon name="chevron-down" size={16} className={open ? styles.flipped : undefined} />
        <span className="visually-hidden">{name} subcategories</span>
      </button>
      <ul id={submenuId(entry)} className={styles.submenu}>
        {entry.children.map((child) => (
          <li key={child.id}>
            <NavLink to={paths.category(child.slug)} className={({ isActive }) => `${styles.sublink} ${isActive ? styles.active : ''}`}>
              {htmlToText(child.name)}
            </NavLink>
          </li>
        ))}
      </ul>
    </li>
  );
}

/** The open dropdown: its item, and whether it stays when the pointer leaves. */
interface OpenSubmenu {
  slug: string;
  pinned: boolean;
}

export function MainNav() {
  const [open, setOpen] = useState(false);
  const [openSubmenu, setOpenSubmenu] = useState<OpenSubmenu | null>(null);
  const submenu = openSubmenu?.slug ?? null;
  const container = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { pathname, search } = useLocation();
  const { data } = useCategories();
  const entries = menuTree(data, MAX_CATEGORIES);

  useDismiss(open || submenu !== null, container, (reason) => {
    if (reason === 'escape' && submenu !== null) {
      // Escape closes the innermost thing open: the submenu, focus back on its button
      // if focus was in it.
      const item = container.current?.querySelector(`[data-menu-item="${submenu}"]`);
      setOpenSubmenu(null);
      if (item?.contains(document.activeElement)) item.querySelector('button')?.focus();
      return;
    }
    setOpenSubmenu(null);
    setOpen(false);
    if (reason === 'escape' && open) button.current?.focus();
  });

  useEffect(() => {
    setOpen(false);
    setOpenSubmenu(null);
  }, [pathname, search]);

  const actionsFor = (slug: string): ItemActions => ({
    // A dropdown the pointer opened closes when it leaves, unless it was pinned since.
    hover: (inside) =>
      setOpenSubmenu((current) => {
        if (inside) return current?.slug === slug ? current : { slug, pinned: false };
        return current?.slug === slug && !current.pinned ? null : current;
      }),
    open: () => setOpenSubmenu({ slug, pinned: true }),
    // The button pins a dropdown the pointer opened on its way to it; a pinned one it closes.
    toggle: () => setOpenSubmenu((current) => (current?.slug === slug && current.pinned ? null : { slug, pinned: true })),
    close: () => setOpenSubmenu((current) => (current?.slug === slug ? null : current)),
  });

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
      <ul id="primary-menu" className={`${styles.list} ${open ? styles.shown : ''}`}>
        <li className={styles.item}>
          <NavLink to={paths.shop()} className={linkClass} end>
            Shop all
          </NavLink>
        </li>
        {entries.map((entry) => (
          <MenuItem key={entry.id} entry={entry} open={submenu === entry.slug} actions={actionsFor(entry.slug)} />
        ))}
        <li className={styles.item}>
          <NavLink to={paths.brands()} className={linkClass}>
            Brands
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}

// The header's cart: a link to the cart page showing the total and item count,
// and a toggle that opens the mini-cart dropdown (closes on Escape, outside click
// and navigation). From 768 px, a dropdown that would run past the bottom of the
// window keeps its list to 15em and scrolls it, so "View cart" and "Checkout" stay
// in view; it is measured when it opens, when its lines change and when the window
// does.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Link } from '@/components/ui/link';
import { Icon } from '@/components/ui/icon';
import { settings } from '@/config/settings';
import { useDismiss } from '@/hooks/use-dismiss';
import { formatPrice } from '@/lib/format-price';
import { useCart } from '../api/get-cart';
import styles from './header-cart.module.css';
import { MiniCart } from './mini-cart';

/** Where the dropdown hangs under the header rather than filling a phone's screen. */
const DROPDOWN_QUERY = '(min-width: 768px)';

/**
 * Lets the mini-cart's list scroll within 15em (its `data-scroll`, see
 * mini-cart.module.css) when the dropdown, measured with the whole list, would end
 * below the window's bottom.
 */
export function fitDropdown(dropdown: HTMLElement, windowHeight: number, wide: boolean) {
  const list = dropdown.querySelector<HTMLElement>('[data-testid="mini-cart-items"]');
  if (!list) return;
  delete list.dataset.scroll;
  if (wide && dropdown.getBoundingClientRect().bottom > windowHeight) list.dataset.scroll = 'true';
}

export function HeaderCart() {
  const { data: cart } = useCart();
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();

  useDismiss(open, container, (reason) => {
    setOpen(false);
    if (reason === 'escape') toggle.current?.focus();
  });

  useEffect(() => setOpen(false), [pathname]);

  const dropdown = useRef<HTMLDivElement>(null);
  const lines = cart?.items.length ?? 0;
  // Before the browser paints the opened dropdown, so its list never jumps.
  useLayoutEffect(() => {
    const element = dropdown.current;
    if (!open || !element) return;
    const fit = () => fitDropdown(element, window.innerHeight, window.matchMedia?.(DROPDOWN_QUERY).matches ?? false);
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [open, lines]);

  const count = cart?.items_count ?? 0;
  const total = cart ? formatPrice(cart.totals.total_items, cart.totals) : '';

  return (
    <div className={styles.headerCart} ref={container}>
      <Link to={settings.cart_url} className={styles.link} title="View your shopping cart">
        {/* The name is the visible text in the order shown (total, then the count on
            the icon) with words around it for screen readers, so a voice command naming
            what is on screen finds the link: "Cart: $81.00 3 items". */}
        <span className="visually-hidden">Cart:</span>{' '}
        {total && (
          <span className={styles.total} data-testid="header-cart-total">
            {total}
          </span>
        )}{' '}
        <span className={styles.icon}>
          <Icon name="cart" size={22} />
          <span className={styles.badge} data-testid="header-cart-count">
            {count}
          </span>
        </span>
        {' '}
        <span className="visually-hidden">{count === 1 ? 'item' : 'items'}</span>
      </Link>
      <button
        ref={toggle}
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls="mini-cart"
        aria-label={open ? 'Hide cart contents' : 'Show cart contents'}
        onClick={() => setOpen((value) => !value)}
      >
        <Icon name="chevron-down" size={18} className={open ? styles.flipped : undefined} />
      </button>
      <div ref={dropdown} id="mini-cart" className={styles.dropdown} hidden={!open} role="region" aria-label="Cart contents">
        {open && <MiniCart cart={cart} />}
      </div>
    </div>
  );
}

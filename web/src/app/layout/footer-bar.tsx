// The phone's footer bar (below 768 px): the account, a Search button that opens the
// header's search and puts the cursor in it, and the cart with its item count. It
// steps aside while the shopper fills in a form elsewhere on the page (the body
// carries INPUT_FOCUSED_CLASS; see typing-field.ts), when the on-screen keyboard would
// push it up over the form.
// The page keeps --footer-bar-height free at its bottom, so the bar never hides
// content; other things fixed to the bottom of a phone's screen sit above it.
import { useEffect, useRef } from 'react';
import { Icon } from '@/components/ui/icon';
import { Link } from '@/components/ui/link';
import { paths } from '@/config/paths';
import { settings } from '@/config/settings';
import { useCart } from '@/features/cart/api/get-cart';
import { SEARCH_FORM_ID, SEARCH_TOGGLE_ID, openSearchAndFocus, setSearchOpen, useSearchOpen } from './search-toggle';
import { hidesFooterBar, INPUT_FOCUSED_CLASS, isTypingField } from './typing-field';
import styles from './footer-bar.module.css';

export function FooterBar() {
  const bar = useRef<HTMLElement>(null);
  const searchOpen = useSearchOpen();
  const count = useCart().data?.items_count ?? 0;

  useEffect(() => {
    const body = document.body;
    // The field the shopper last typed in while the bar is away.
    let typingIn: Element | null = null;
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target as Element;
      const hide = hidesFooterBar(target, bar.current, typingIn);
      typingIn = hide ? (isTypingField(target) ? target : typingIn) : null;
      body.classList.toggle(INPUT_FOCUSED_CLASS, hide);
    };
    // Focus leaving for nowhere (a tap on the page, the keyboard closed); focus moving
    // to something else is the focusin's to judge.
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget) return;
      typingIn = null;
      body.classList.remove(INPUT_FOCUSED_CLASS);
    };
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
      body.classList.remove(INPUT_FOCUSED_CLASS);
    };
  }, []);

  return (
    <nav ref={bar} className={`storefront-handheld-footer-bar ${styles.bar}`} aria-label="Shortcuts">
      <ul className={styles.items}>
        <li>
          <Link to={paths.account()} className={`my-account ${styles.item}`}>
            <Icon name="user" size={22} />
            <span>My account</span>
          </Link>
        </li>
        <li>
          <button
            id={SEARCH_TOGGLE_ID}
            type="button"
            className={`search ${styles.item}`}
            aria-expanded={searchOpen}
            aria-controls={SEARCH_FORM_ID}
            onClick={() => (searchOpen ? setSearchOpen(false) : openSearchAndFocus())}
          >
            <Icon name="search" size={22} />
            <span>Search</span>
          </button>
        </li>
        <li>
          <Link to={settings.cart_url} className={`footer-cart-contents ${styles.item}`}>
            <span className={styles.icon}>
              <Icon name="cart" size={22} />
              <span className={`count ${styles.count}`} data-testid="footer-bar-count" aria-hidden="true">
                {count}
              </span>
            </span>
            <span>
              Cart <span className="visually-hidden">{count === 1 ? '(1 item)' : `(${count} items)`}</span>
            </span>
          </Link>
        </li>
      </ul>
    </nav>
  );
}

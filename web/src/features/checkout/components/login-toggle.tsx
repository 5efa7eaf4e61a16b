// "Returning customer? Click here to login": for guests, the link slides the login form
// open and shut (400 ms); once open the page scrolls to it (300 ms, 50 px above).
import { useRef, useState, type ReactNode } from 'react';
import { Collapsible } from '@/components/ui/collapsible';
import { Icon } from '@/components/ui/icon';
import { scrollToElement } from '@/lib/scroll';
import styles from './checkout.module.css';

export const LOGIN_SLIDE_MS = 400;
export const LOGIN_SCROLL = { duration: 300, offset: 50 };

export function LoginToggle({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const region = useRef<HTMLDivElement>(null);

  return (
    <div className={`woocommerce-form-login-toggle ${styles.toggleBlock}`}>
      <div className={`woocommerce-info ${styles.toggleNotice}`}>
        <Icon name="user" size={18} />
        <span>
          Returning customer?{' '}
          <a
            href="#checkout-login"
            className="showlogin"
            aria-expanded={open}
            aria-controls="checkout-login"
            onClick={(event) => {
              event.preventDefault();
              setOpen((value) => !value);
            }}
          >
            Click here to login
          </a>
        </span>
      </div>
      <div ref={region}>
        <Collapsible
          open={open}
          duration={LOGIN_SLIDE_MS}
          id="checkout-login"
          onOpened={() => {
            if (region.current) scrollToElement(region.current, LOGIN_SCROLL);
          }}
        >
          <div className={styles.loginPanel}>{children}</div>
        </Collapsible>
      </div>
    </div>
  );
}

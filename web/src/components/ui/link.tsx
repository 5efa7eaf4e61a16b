// Links between the storefront's pages. Every `to` here is a path of this shop
// ("/product/…", "/shop?orderby=price"), so the link is a plain anchor whose href is
// that path, and a plain left click navigates in the app instead of loading the
// page. React Router's own Link resolves relative paths, looks up the route and keeps
// refs and effects on every render; a listing page has some seventy links, and on the
// server's embedded engine they took over a quarter of its render, so these do only what a
// shop's links need. A link to another site (or with a target) is left to the browser.
import {
  createContext,
  useContext,
  useMemo,
  useRef,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { useLocation, useNavigate, type Location, type NavigateFunction } from 'react-router';

interface Navigation {
  navigate: NavigateFunction;
  /** The page shown now (read when a link is followed, so links do not re-render on navigation). */
  here: { current: Location };
}

/** The router's navigation, looked up once for the whole app rather than per link. */
const NavigationContext = createContext<Navigation | null>(null);

/** Lets the links inside follow a click in the app; without it they load the page. */
export function LinkNavigation({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef(location);
  here.current = location;
  const navigation = useMemo(() => ({ navigate, here }), [navigate]);
  return <NavigationContext.Provider value={navigation}>{children}</NavigationContext.Provider>;
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A path of this shop, with its query and fragment if any. */
  to: string;
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
}

/** A path this app routes (not another site, not a protocol-relative URL). */
function isAppPath(to: string): boolean {
  return to.startsWith('/') && !to.startsWith('//');
}

/** A click the browser should handle itself: another button, a modifier key (new tab
 *  or window, download), a target other than this window, or one already handled. */
function leftToBrowser(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.altKey ||
    event.ctrlKey ||
    event.shiftKey ||
    (target !== undefined && target !== '_self')
  );
}

export function Link({ to, replace, onClick, target, ...rest }: LinkProps) {
  const navigation = useContext(NavigationContext);
  return (
    <a
      {...rest}
      href={to}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!navigation || leftToBrowser(event, target) || !isAppPath(to)) return;
        event.preventDefault();
        // Following a link to the page already shown does not add a history entry.
        const { pathname, search, hash } = navigation.here.current;
        void navigation.navigate(to, { replace: replace ?? pathname + search + hash === to });
      }}
    />
  );
}

export interface NavLinkProps extends Omit<LinkProps, 'className' | 'children'> {
  /** Only the exact path is the current page, not the pages under it. */
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string);
  children?: ReactNode;
}

/** Whether the page at `pathname` is `to` (or, unless `end`, a page under it). */
export function isCurrentPath(pathname: string, to: string, end = false): boolean {
  const path = to.split(/[?#]/, 1)[0]!.replace(/(.)\/+$/, '$1');
  const here = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (here === path) return true;
  return !end && (path === '/' || here.startsWith(`${path}/`));
}

/** A link in a menu: marked as the current page (`aria-current`) when it is. */
export function NavLink({ to, end, className, ...rest }: NavLinkProps) {
  const { pathname } = useLocation();
  const isActive = isCurrentPath(pathname, to, end);
  return (
    <Link
      {...rest}
      to={to}
      aria-current={isActive ? 'page' : undefined}
      className={typeof className === 'function' ? className({ isActive }) : className}
    />
  );
}

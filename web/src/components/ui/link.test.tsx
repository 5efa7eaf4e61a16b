import { screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { fireEvent } from '@/test/events';
import { renderWithApp } from '@/test/render';
import { isCurrentPath, Link, NavLink } from './link';

/** Clicks `link`; true when the app followed it (the browser was told not to load the
 *  page). The click is then stopped either way, as the test's document cannot load one. */
function click(link: HTMLElement, init: MouseEventInit = {}): boolean {
  let kept = false;
  const see = (event: Event) => {
    kept = event.defaultPrevented;
    event.preventDefault();
  };
  document.addEventListener('click', see);
  fireEvent.click(link, init);
  document.removeEventListener('click', see);
  return kept;
}

describe('a link between pages', () => {
  it('is an anchor to the path, followed in the app on a plain click', () => {
    const { router } = renderWithApp(<Link to="/shop?orderby=price">Cheapest first</Link>, { path: '/cart' });
    const link = screen.getByRole('link', { name: 'Cheapest first' });
    expect(link.getAttribute('href')).toBe('/shop?orderby=price');
    expect(click(link)).toBe(true);
    expect(router.state.location.pathname + router.state.location.search).toBe('/shop?orderby=price');
    expect(router.state.historyAction).toBe('PUSH');
  });

  it('leaves a click with a modifier key, another button or a target to the browser', () => {
    const { router } = renderWithApp(
      <>
        <Link to="/shop">Shop</Link>
        <Link to="/cart" target="_blank">
          Cart
        </Link>
      </>,
      { path: '/' },
    );
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }]) {
      expect(click(screen.getByRole('link', { name: 'Shop' }), init)).toBe(false);
    }
    expect(click(screen.getByRole('link', { name: 'Cart' }))).toBe(false);
    expect(router.state.location.pathname).toBe('/');
  });

  it('leaves another site to the browser', () => {
    const { router } = renderWithApp(
      <>
        <Link to="https://example.org/shop">Elsewhere</Link>
        <Link to="//example.org/shop">Protocol-relative</Link>
      </>,
      { path: '/' },
    );
    expect(click(screen.getByRole('link', { name: 'Elsewhere' }))).toBe(false);
    expect(click(screen.getByRole('link', { name: 'Protocol-relative' }))).toBe(false);
    expect(router.state.location.pathname).toBe('/');
  });

  it('replaces the history entry when it leads to the page already shown', () => {
    const { router } = renderWithApp(<Link to="/shop?page=2">Page 2</Link>, { path: '/shop?page=2' });
    expect(click(screen.getByRole('link', { name: 'Page 2' }))).toBe(true);
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('runs its own click handler first, which may keep the page', () => {
    const { router } = renderWithApp(
      <Link to="/shop" onClick={(event) => event.preventDefault()}>
        Shop
      </Link>,
      { path: '/' },
    );
    click(screen.getByRole('link', { name: 'Shop' }));
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('a menu link', () => {
  it('marks the page shown as current, and its parent unless it must match exactly', () => {
    renderWithApp(
      <>
        <NavLink to="/shop" end className={({ isActive }) => (isActive ? 'on' : 'off')}>
          Shop all
        </NavLink>
        <NavLink to="/product-category/clothing" className={({ isActive }) => (isActive ? 'on' : 'off')}>
          Clothing
        </NavLink>
        <NavLink to="/product-category/footwear">Footwear</NavLink>
      </>,
      { path: '/product-category/clothing/hoodies' },
    );
    const clothing = screen.getByRole('link', { name: 'Clothing' });
    expect(clothing.getAttribute('aria-current')).toBe('page');
    expect(clothing.className).toBe('on');
    expect(screen.getByRole('link', { name: 'Shop all' }).className).toBe('off');
    expect(screen.getByRole('link', { name: 'Footwear' }).hasAttribute('aria-current')).toBe(false);
  });

  it('compares paths, not queries, trailing slashes or look-alike prefixes', () => {
    expect(isCurrentPath('/shop/', '/shop', true)).toBe(true);
    expect(isCurrentPath('/shop', '/shop?orderby=price', true)).toBe(true);
    expect(isCurrentPath('/shop/page/2', '/shop', true)).toBe(false);
    expect(isCurrentPath('/shop/page/2', '/shop')).toBe(true);
    expect(isCurrentPath('/shopping', '/shop')).toBe(false);
    expect(isCurrentPath('/my-account/orders', '/my-account/', false)).toBe(true);
    expect(isCurrentPath('/cart', '/')).toBe(true);
    expect(isCurrentPath('/cart', '/', true)).toBe(false);
  });
});

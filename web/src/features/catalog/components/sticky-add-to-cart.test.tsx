import { screen } from '@testing-library/preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useRef } from 'react';
import beanie from '@/test/fixtures/store-product-simple.json';
import hoodie from '@/test/fixtures/store-product-variable.json';
import { renderWithApp } from '@/test/render';
import { fireEvent } from '@/test/events';
import type { Product } from '@/types/store-api';
import { StickyAddToCart, stickyBarShown } from './sticky-add-to-cart';

type Callback = (entries: Partial<IntersectionObserverEntry>[]) => void;
let observed: Callback | null = null;

class FakeObserver {
  constructor(callback: Callback) {
    observed = callback;
  }
  observe() {}
  disconnect() {
    observed = null;
  }
}

function Page({ product }: { product: Product }) {
  const area = useRef<HTMLDivElement>(null);
  return (
    <>
      <div ref={area}>
        <select aria-label="Color">
          <option>Blue</option>
        </select>
      </div>
      <StickyAddToCart product={product} trigger={area} renderAddToCart={(request) => <button type="button">Add {request.productName}</button>} />
    </>
  );
}

const scrolled = (past: boolean) =>
  act(() => observed!([{ isIntersecting: !past, boundingClientRect: { bottom: past ? -20 : 300 } as DOMRectReadOnly }]));

describe('the sticky add-to-cart bar', () => {
  beforeEach(() => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    Element.prototype.scrollIntoView = vi.fn();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows only once the buying controls are out of view above', () => {
    expect(stickyBarShown({ isIntersecting: true, boundingClientRect: { bottom: 10 } as DOMRectReadOnly })).toBe(false);
    expect(stickyBarShown({ isIntersecting: false, boundingClientRect: { bottom: 900 } as DOMRectReadOnly })).toBe(false);
    expect(stickyBarShown({ isIntersecting: false, boundingClientRect: { bottom: -1 } as DOMRectReadOnly })).toBe(true);
  });

  it('slides in when they scroll away and out when they come back, inert while hidden', () => {
    renderWithApp(<Page product={beanie as Product} />);
    const bar = screen.getByTestId('sticky-add-to-cart');
    expect(bar.getAttribute('data-shown')).toBe('false');
    expect(bar.hasAttribute('inert')).toBe(true);
    scrolled(true);
    expect(bar.getAttribute('data-shown')).toBe('true');
    expect(bar.hasAttribute('inert')).toBe(false);
    expect(screen.getByRole('button', { name: 'Add Beanie' })).toBeTruthy();
    scrolled(false);
    expect(bar.getAttribute('data-shown')).toBe('false');
  });

  it('takes a variable product back to its options instead of adding', () => {
    renderWithApp(<Page product={hoodie as Product} />);
    scrolled(true);
    fireEvent.click(screen.getByRole('button', { name: 'Select options' }));
    expect(Element.prototype.scrollIntoView).toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Color' }));
  });
});

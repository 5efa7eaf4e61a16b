import { render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { act } from 'preact/test-utils';
import { fireEvent } from '@/test/events';
import { ProductTabs, type ProductTab } from './product-tabs';

const tabs: ProductTab[] = [
  { id: 'description', title: 'Description', content: <p>About it</p> },
  { id: 'additional_information', title: 'Additional information', content: <p>Weight</p> },
  { id: 'reviews', title: 'Reviews (2)', content: <p id="comment-7">Lovely</p> },
];

const selected = () => screen.getAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true')?.textContent;

describe('the product tabs', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('open the first tab, and link each tab to its panel', () => {
    render(<ProductTabs tabs={tabs} />);
    expect(selected()).toBe('Description');
    expect(screen.getByRole('tab', { name: 'Reviews (2)' }).getAttribute('href')).toBe('#tab-reviews');
    expect(screen.getByRole('tabpanel', { name: 'Description' }).hidden).toBe(false);
    expect(document.getElementById('tab-reviews')!.hidden).toBe(true);
  });

  it('open the reviews for a comment marker in the hash', () => {
    window.history.replaceState(null, '', '/product/hoodie/#comment-7');
    render(<ProductTabs tabs={tabs} />);
    expect(selected()).toBe('Reviews (2)');
  });

  it('open the reviews on a page of reviews (?cpage=2)', () => {
    window.history.replaceState(null, '', '/product/hoodie/?cpage=2');
    render(<ProductTabs tabs={tabs} search="?cpage=2" />);
    expect(selected()).toBe('Reviews (2)');
  });

  it('follow the hash when it changes', () => {
    render(<ProductTabs tabs={tabs} />);
    act(() => {
      window.history.replaceState(null, '', '/product/hoodie/#tab-additional_information');
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(selected()).toBe('Additional information');
  });

  it('move with the arrow keys, Home and End, wrapping around', () => {
    render(<ProductTabs tabs={tabs} />);
    const [first, second, third] = screen.getAllByRole('tab');
    fireEvent.keyDown(first!, { key: 'ArrowRight' });
    expect(selected()).toBe('Additional information');
    expect(document.activeElement).toBe(second);
    fireEvent.keyDown(second!, { key: 'End' });
    expect(document.activeElement).toBe(third);
    fireEvent.keyDown(third!, { key: 'ArrowRight' });
    expect(selected()).toBe('Description');
    fireEvent.keyDown(first!, { key: 'ArrowLeft' });
    expect(selected()).toBe('Reviews (2)');
    fireEvent.keyDown(third!, { key: 'Home' });
    expect(selected()).toBe('Description');
    // Only the open tab is in the tab order.
    expect(screen.getAllByRole('tab').map((tab) => tab.tabIndex)).toEqual([0, -1, -1]);
  });

  it('open a tab on click without following its link', () => {
    render(<ProductTabs tabs={tabs} />);
    const notPrevented = fireEvent.click(screen.getByRole('tab', { name: 'Reviews (2)' }));
    expect(notPrevented).toBe(false);
    expect(selected()).toBe('Reviews (2)');
  });
});

import { screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render';
import { CatalogOrdering } from './catalog-ordering';
import { setValue } from '@/test/events';

describe('the sort-by select', () => {
  it('records the new ordering in the address and goes back to the first page', () => {
    const { router } = renderWithApp(<CatalogOrdering value="menu_order" />, { path: '/shop?page=3&s=hoodie' });
    setValue(screen.getByRole('combobox', { name: 'Shop order' }), 'price-desc');
    expect(router.state.location.search).toBe('?s=hoodie&orderby=price-desc');
  });

  it('drops the orderby parameter for the default sorting', () => {
    const { router } = renderWithApp(<CatalogOrdering value="popularity" />, { path: '/shop?orderby=popularity' });
    setValue(screen.getByRole('combobox', { name: 'Shop order' }), 'menu_order');
    expect(router.state.location.search).toBe('');
  });
});

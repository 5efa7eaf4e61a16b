import { describe, expect, it } from 'vitest';
import type { Product } from '@/types/store-api';
import products from '@/test/fixtures/store-products-list.json';
import variable from '@/test/fixtures/store-product-variable.json';
import { cardAction } from './card-action';

const list = products as Product[];
const byName = (name: string) => list.find((product) => product.name === name)!;

describe('the action a product card offers', () => {
  it('is an add-to-cart button for a simple product in stock', () => {
    expect(cardAction(byName('Beanie with Logo'))).toEqual({ kind: 'add-to-cart' });
  });

  it('is "Read more" for a simple product out of stock', () => {
    expect(cardAction({ ...byName('Cap'), is_in_stock: false })).toMatchObject({ kind: 'link', text: 'Read more' });
  });

  it('is "Select options" for a variable product', () => {
    expect(cardAction(variable as Product)).toEqual({
      kind: 'link',
      href: '/product/hoodie',
      text: 'Select options',
      external: false,
    });
  });

  it("is the external product's own button text linking to its external address", () => {
    expect(cardAction(byName('WordPress Pennant'))).toEqual({
      kind: 'link',
      href: 'https://mercantile.wordpress.org/product/wordpress-pennant/',
      text: 'Buy on the WordPress swag store!',
      external: true,
    });
  });
});

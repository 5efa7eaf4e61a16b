import { describe, expect, it } from 'vitest';
import added from '@/test/fixtures/ajax-add-to-cart.json';
import negative from '@/test/fixtures/ajax-add-to-cart-negative-qty.json';
import type { FragmentsResponse } from '@/types/store-api';
import { addedToCartMessage, addToCartOutcome } from './add-to-cart-outcome';

describe('the outcome of adding to the cart', () => {
  it('sends the shopper to the product when the shop answers with an error and a product URL', () => {
    expect(addToCartOutcome(negative as FragmentsResponse, 'no')).toEqual({
      kind: 'go-to-product',
      url: 'http://127.0.0.1:8090/product/beanie/',
    });
  });

  it('fails without leaving the page when the error has no product URL', () => {
    expect(addToCartOutcome({ error: true, product_url: false }, 'no')).toEqual({ kind: 'failed' });
    expect(addToCartOutcome(null, 'no')).toEqual({ kind: 'failed' });
  });

  it('shows the reason instead of reloading when the shopper is already on that product', () => {
    const refusal = {
      error: true,
      product_url: 'http://shop.test/product/nest-serving-bowl/',
      message: 'You cannot add that amount to the cart &mdash; we have 5 in stock.',
    };
    expect(addToCartOutcome(refusal, 'no', '/product/nest-serving-bowl')).toEqual({
      kind: 'failed',
      message: 'You cannot add that amount to the cart — we have 5 in stock.',
    });
    expect(addToCartOutcome(refusal, 'no', '/shop')).toEqual({
      kind: 'go-to-product',
      url: 'http://shop.test/product/nest-serving-bowl/',
    });
  });

  it('goes to the cart when the shop redirects there after adding', () => {
    expect(addToCartOutcome(added as FragmentsResponse, 'yes')).toEqual({
      kind: 'go-to-cart',
      cartHash: 'a115dd0c3ecdf81751bc1e105763a8dc',
    });
  });

  it('otherwise stays and carries the new cart hash', () => {
    expect(addToCartOutcome(added as FragmentsResponse, 'no')).toEqual({
      kind: 'added',
      cartHash: 'a115dd0c3ecdf81751bc1e105763a8dc',
    });
  });

  it('words the success message with curly quotes around the product name', () => {
    expect(addedToCartMessage('Beanie')).toBe('“Beanie” has been added to your cart.');
  });
});

import { screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetNonce } from '@/lib/api-client';
import hoodie from '@/test/fixtures/store-product-variable.json';
import beanie from '@/test/fixtures/store-product-simple.json';
import { stubShop } from '@/test/fetch-stub';
import { jsonResponse, renderWithApp } from '@/test/render';
import type { AddToCartRequest } from '@/types/add-to-cart';
import type { Product } from '@/types/store-api';
import { ProductDetails } from './product-details';
import { fireEvent, setValue } from '@/test/events';

const variable = hoodie as Product;
const simple = beanie as Product;

function variation(id: number, overrides: Partial<Product> = {}): Product {
  return {
    ...variable,
    id,
    type: 'variation',
    parent: variable.id,
    sku: `woo-hoodie-${id}`,
    prices: { ...variable.prices, price: '4500', regular_price: '4500', sale_price: '4500', price_range: null },
    images: [variable.images[1]!],
    variations: [],
    ...overrides,
  };
}

// The add-to-cart slot, recording what the page would add.
const requests: AddToCartRequest[] = [];
function FakeAddToCart(request: AddToCartRequest) {
  requests.push(request);
  return (
    <button type="button" disabled={request.disabled}>
      Add to cart
    </button>
  );
}
const lastRequest = () => requests[requests.length - 1]!;

function shop(variations: Record<number, Product>) {
  return stubShop(({ url }) => {
    const match = url.match(/\/products\/(\d+)$/);
    if (match) return jsonResponse(variations[Number(match[1])]);
    if (url.includes('/products?')) return jsonResponse([], { headers: { 'X-WP-Total': '0', 'X-WP-TotalPages': '0' } });
    return undefined;
  });
}

describe('a variable product page', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
    requests.length = 0;
  });

  it('offers one select per variation attribute, starting with "Choose an option"', () => {
    shop({});
    renderWithApp(<ProductDetails product={variable} renderAddToCart={(request) => <FakeAddToCart {...request} />} />);
    const color = screen.getByRole('combobox', { name: 'Color' }) as HTMLSelectElement;
    const logo = screen.getByRole('combobox', { name: 'Logo' }) as HTMLSelectElement;
    expect(color.value).toBe('');
    expect(within(color).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Choose an option',
      'Blue',
      'Green',
      'Red',
    ]);
    expect(logo.name).toBe('attribute_logo');
  });

  it('keeps the add-to-cart button disabled until a complete choice matches an in-stock variation', async () => {
    shop({ 35: variation(35) });
    renderWithApp(<ProductDetails product={variable} renderAddToCart={(request) => <FakeAddToCart {...request} />} />);
    const button = screen.getByRole('button', { name: 'Add to cart' });
    expect(button).toHaveProperty('disabled', true);

    setValue(screen.getByRole('combobox', { name: 'Color' }), 'blue');
    expect(button).toHaveProperty('disabled', true);

    setValue(screen.getByRole('combobox', { name: 'Logo' }), 'Yes');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add to cart' })).toHaveProperty('disabled', false));

    expect(lastRequest()).toMatchObject({
      productId: 35,
      variationId: 35,
      attributes: { attribute_pa_color: 'blue', attribute_logo: 'Yes' },
      productName: 'Hoodie',
      quantity: 1,
    });
    const details = screen.getByTestId('variation-details');
    expect(details.textContent).toContain('$45.00');
    expect(details.textContent).toContain('In stock');
    // The variation's image takes the main place (it may land a render after the button).
    await waitFor(() =>
      expect(screen.getByTestId('product-main-image').querySelector('img')?.getAttribute('src')).toBe(variable.images[1]!.src),
    );
  });

  it('disables options that no variation offers with the other choice', () => {
    shop({});
    renderWithApp(<ProductDetails product={variable} renderAddToCart={(request) => <FakeAddToCart {...request} />} />);
    setValue(screen.getByRole('combobox', { name: 'Color' }), 'red');
    const logo = screen.getByRole('combobox', { name: 'Logo' });
    expect(within(logo).getByRole('option', { name: 'Yes' })).toHaveProperty('disabled', true);
    expect(within(logo).getByRole('option', { name: 'No' })).toHaveProperty('disabled', false);
  });

  it('keeps the button disabled for an out-of-stock variation and says so', async () => {
    shop({ 28: variation(28, { is_in_stock: false }) });
    renderWithApp(<ProductDetails product={variable} renderAddToCart={(request) => <FakeAddToCart {...request} />} />);
    setValue(screen.getByRole('combobox', { name: 'Color' }), 'red');
    setValue(screen.getByRole('combobox', { name: 'Logo' }), 'No');
    await waitFor(() => expect(screen.getByTestId('variation-details').textContent).toContain('Out of stock'));
    expect(screen.getByRole('button', { name: 'Add to cart' })).toHaveProperty('disabled', true);
  });

  it('clears the choice with the Clear control', () => {
    shop({});
    renderWithApp(<ProductDetails product={variable} renderAddToCart={(request) => <FakeAddToCart {...request} />} />);
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();
    setValue(screen.getByRole('combobox', { name: 'Color' }), 'green');
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect((screen.getByRole('combobox', { name: 'Color' }) as HTMLSelectElement).value).toBe('');
  });

  it('preselects the options named in a variation permalink', () => {
    shop({ 35: variation(35) });
    renderWithApp(<ProductDetails product={variable} renderAddToCart={(request) => <FakeAddToCart {...request} />} />, {
      path: '/product/hoodie/?attribute_pa_color=blue&attribute_logo=Yes',
    });
    expect((screen.getByRole('combobox', { name: 'Color' }) as HTMLSelectElement).value).toBe('blue');
    expect((screen.getByRole('combobox', { name: 'Logo' }) as HTMLSelectElement).value).toBe('Yes');
  });
});

describe('a simple product page', () => {
  beforeEach(() => {
    vi.unstubAllGlobals();
    requests.length = 0;
  });

  it('shows the sale price after the struck-through regular price, the stock and the SKU', () => {
    shop({});
    renderWithApp(<ProductDetails product={simple} renderAddToCart={(request) => <FakeAddToCart {...request} />} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Beanie' })).toBeTruthy();
    const price = screen.getByTestId('product-price');
    expect(price.querySelector('del')?.textContent).toContain('$20.00');
    expect(price.querySelector('ins')?.textContent).toContain('$18.00');
    expect(screen.getByTestId('stock-status').textContent).toBe('In stock');
    expect(screen.getByTestId('product-sku').textContent).toBe('woo-beanie');
    // In the breadcrumbs and in the product meta.
    expect(screen.getAllByRole('link', { name: 'Accessories' }).map((link) => link.getAttribute('href'))).toEqual([
      '/product-category/accessories',
      '/product-category/accessories',
    ]);
  });

  it('swaps the main image when a thumbnail is chosen', () => {
    shop({});
    const twoImages = { ...simple, images: [variable.images[0]!, variable.images[2]!] };
    renderWithApp(<ProductDetails product={twoImages} renderAddToCart={(request) => <FakeAddToCart {...request} />} />);
    fireEvent.click(screen.getByRole('button', { name: 'Show image 2 of 2' }));
    expect(screen.getByTestId('product-main-image').querySelector('img')?.getAttribute('src')).toBe(variable.images[2]!.src);
    expect(screen.getByRole('button', { name: 'Show image 2 of 2' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('links an external product to its own shop with its button text', () => {
    shop({});
    const external = {
      ...simple,
      type: 'external' as const,
      is_purchasable: false,
      add_to_cart: { ...simple.add_to_cart, text: 'Buy on the WordPress swag store!', url: 'https://example.com/pennant' },
    };
    renderWithApp(<ProductDetails product={external} renderAddToCart={(request) => <FakeAddToCart {...request} />} />);
    expect(screen.getByRole('link', { name: 'Buy on the WordPress swag store!' }).getAttribute('href')).toBe('https://example.com/pennant');
    expect(screen.queryByRole('button', { name: 'Add to cart' })).toBeNull();
  });

  it('shows no quantity for a product sold one to an order', () => {
    shop({});
    renderWithApp(<ProductDetails product={{ ...simple, sold_individually: true }} renderAddToCart={(request) => <FakeAddToCart {...request} />} />);
    expect(screen.queryByRole('spinbutton')).toBeNull();
    expect(lastRequest().quantity).toBe(1);
    expect((document.querySelector('input[type="hidden"][name="quantity"]') as HTMLInputElement).value).toBe('1');
  });
});

import { screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetNonce } from '@/lib/api-client';
import hoodie from '@/test/fixtures/store-product-variable.json';
import { stubShop } from '@/test/fetch-stub';
import { fireEvent, setValue } from '@/test/events';
import { jsonResponse, renderWithApp } from '@/test/render';
import type { AddToCartRequest } from '@/types/add-to-cart';
import type { Product } from '@/types/store-api';
import type { AvailableVariation, VariationForm } from '../api/get-variation-form';
import { ProductDetails } from './product-details';

const variable = hoodie as Product;

function available(id: number, color: string, logo: string, overrides: Partial<AvailableVariation> = {}): AvailableVariation {
  return {
    variation_id: id,
    attributes: { attribute_pa_color: color, attribute_logo: logo },
    is_in_stock: true,
    is_purchasable: true,
    max_qty: '',
    min_qty: 1,
    variation_stock_left: null,
    availability_html: '',
    price_html: '',
    sku: '',
    image: null,
    ...overrides,
  };
}

const carried = [
  available(35, 'blue', 'Yes', { variation_stock_left: 2, max_qty: 2 }),
  available(28, 'red', 'No', { is_in_stock: false }),
  available(29, 'green', 'No'),
  available(30, 'blue', 'No'),
];

function form(variations: AvailableVariation[] | false): VariationForm {
  return {
    product_id: 12,
    attributes: [
      {
        name: 'Color',
        taxonomy: 'pa_color',
        field: 'attribute_pa_color',
        swatch: 'color',
        default: '',
        options: [
          { value: 'blue', label: 'Blue', color: '#1d4ed8', image: null },
          { value: 'green', label: 'Green', color: '#15803d', image: null },
          { value: 'red', label: 'Red', color: '#b91c1c', image: null },
        ],
      },
      { name: 'Logo', taxonomy: null, field: 'attribute_logo', swatch: 'select', default: '', options: [] },
    ],
    variations,
    variation_count: 4,
    ajax_threshold: 30,
    stock_label_threshold: 5,
  };
}

function variation(id: number): Product {
  return { ...variable, id, type: 'variation', parent: 12, variations: [], prices: { ...variable.prices, price_range: null } };
}

function FakeAddToCart(request: AddToCartRequest) {
  return (
    <button type="button" disabled={request.disabled}>
      Add to cart
    </button>
  );
}

const lookups: string[] = [];

function shop(variationForm: VariationForm) {
  return stubShop(({ url, body: sentBody }) => {
    if (url.includes('/variation-form')) return jsonResponse(variationForm);
    if (url.includes('wc-ajax=get_variation')) {
      const body = new URLSearchParams(sentBody);
      lookups.push(body.toString());
      const found = carried.find(
        (v) => v.attributes.attribute_pa_color === body.get('attribute_pa_color') && v.attributes.attribute_logo === body.get('attribute_logo'),
      );
      return jsonResponse(found ?? false);
    }
    const match = url.match(/\/products\/(\d+)$/);
    if (match) return jsonResponse(variation(Number(match[1])));
    if (url.includes('/products?')) return jsonResponse([], { headers: { 'X-WP-Total': '0', 'X-WP-TotalPages': '0' } });
    return undefined;
  });
}

const render = () => renderWithApp(<ProductDetails product={variable} renderAddToCart={(request) => <FakeAddToCart {...request} />} />);

describe('variation swatches', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
    lookups.length = 0;
  });

  it('offers a colour attribute as a group of radio swatches, and the others as a drop-down', async () => {
    shop(form(carried));
    render();
    const group = await screen.findByRole('group', { name: 'Color' });
    const radios = within(group).getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((radio) => radio.value)).toEqual(['blue', 'green', 'red']);
    expect(radios.every((radio) => radio.name === 'attribute_pa_color')).toBe(true);
    expect(screen.getByRole('combobox', { name: 'Logo' })).toBeTruthy();
    // Red's only variation is sold out: struck through, still choosable.
    const red = group.querySelector('label[data-value="red"]')!;
    expect(red.className).toContain('no-stock');
    expect(red.textContent).toContain('(out of stock)');
    expect((radios[2] as HTMLInputElement).disabled).toBe(false);
  });

  it('marks the chosen swatch, names it in the legend, and disables what the other choice rules out', async () => {
    shop(form(carried));
    render();
    const group = await screen.findByRole('group', { name: 'Color' });
    setValue(screen.getByRole('combobox', { name: 'Logo' }), 'Yes');
    const radio = (value: string) => group.querySelector(`input[value="${value}"]`) as HTMLInputElement;
    await waitFor(() => expect(radio('green').disabled).toBe(true));
    expect(radio('red').disabled).toBe(true);
    fireEvent.click(radio('blue'));
    await waitFor(() => expect(radio('blue').checked).toBe(true));
    expect(screen.getByRole('group', { name: 'Color: Blue' })).toBe(group);
    expect(group.querySelector('label[data-value="blue"]')!.className).toContain('selected');
  });

  it('says how many are left on a swatch whose variation is at or below the threshold', async () => {
    shop(form(carried));
    render();
    const group = await screen.findByRole('group', { name: 'Color' });
    setValue(screen.getByRole('combobox', { name: 'Logo' }), 'Yes');
    await waitFor(() => expect(group.querySelector('label[data-value="blue"]')!.textContent).toContain('Only 2 left in stock'));
    expect(group.querySelector('label[data-value="green"]')!.textContent).not.toContain('left in stock');
  });

  it('asks the shop for the variation of each complete choice when the page carries none', async () => {
    shop(form(false));
    render();
    const group = await screen.findByRole('group', { name: 'Color' });
    fireEvent.click(group.querySelector('input[value="blue"]')!);
    setValue(screen.getByRole('combobox', { name: 'Logo' }), 'Yes');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add to cart' })).toHaveProperty('disabled', false));
    expect(lookups).toEqual(['product_id=12&attribute_pa_color=blue&attribute_logo=Yes']);
    await waitFor(() => expect(group.querySelector('label[data-value="blue"]')!.textContent).toContain('Only 2 left in stock'));
  });

  it('reads the swatches again 1000 ms after a change the page sent completes (an add to cart takes stock)', async () => {
    const { sent } = shop(form(carried));
    const { queryClient } = render();
    await screen.findByRole('group', { name: 'Color' });
    const formReads = () => sent.filter((request) => request.url.includes('/variation-form')).length;
    expect(formReads()).toBe(1);
    vi.useFakeTimers();
    try {
      await queryClient.getMutationCache().build(queryClient, { mutationFn: async () => 'added' }).execute(undefined);
      await vi.advanceTimersByTimeAsync(999);
      expect(formReads()).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(formReads()).toBe(2));
  });
});

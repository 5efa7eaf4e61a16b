// GET /wp-json/ferroshop/v1/products/{id}/variation-form: how a variable product's
// options are offered (swatches or a drop-down) and its variations as the page
// carries them, or `false` when it has more than the shop embeds.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { restGet } from '@/lib/api-client';
import type { ProductImage } from '@/types/store-api';

export type SwatchType = 'select' | 'color' | 'image' | 'label';

export interface VariationFormOption {
  value: string;
  label: string;
  color: string | null;
  image: ProductImage | null;
}

export interface VariationFormAttribute {
  name: string;
  taxonomy: string | null;
  /** The form field, `attribute_pa_color`. */
  field: string;
  swatch: SwatchType;
  default: string;
  options: VariationFormOption[];
}

/** One variation as the original's `get_available_variation` describes it. */
export interface AvailableVariation {
  variation_id: number;
  /** By form field; an empty value accepts any option. */
  attributes: Record<string, string>;
  is_in_stock: boolean;
  is_purchasable: boolean;
  /** Empty when the quantity is not limited. */
  max_qty: number | '';
  min_qty: number;
  /** The stock left when it is counted; null otherwise. */
  variation_stock_left: number | null;
  availability_html: string;
  price_html: string;
  sku: string;
  image: ProductImage | null;
}

export interface VariationForm {
  product_id: number;
  attributes: VariationFormAttribute[];
  variations: AvailableVariation[] | false;
  variation_count: number;
  ajax_threshold: number;
  stock_label_threshold: number;
}

export async function getVariationForm(productId: number): Promise<VariationForm> {
  const { data } = await restGet<VariationForm>(`/products/${productId}/variation-form`);
  return data;
}

export const variationFormQueryKey = (productId: number) => ['catalog', 'variation-form', productId] as const;

export function getVariationFormQueryOptions(productId: number) {
  return queryOptions({
    queryKey: variationFormQueryKey(productId),
    queryFn: () => getVariationForm(productId),
  });
}

export function useVariationForm(productId: number, enabled: boolean) {
  return useQuery({ ...getVariationFormQueryOptions(productId), enabled });
}

// ?wc-ajax=get_variation: the variation a complete choice picks, for a product with
// more variations than its page carries (the original's call); false when none.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { wcAjax } from '@/lib/api-client';
import type { AvailableVariation } from './get-variation-form';

export async function getVariation(productId: number, fields: Record<string, string>): Promise<AvailableVariation | false> {
  return wcAjax<AvailableVariation | false>('get_variation', { product_id: productId, ...fields });
}

export function getVariationQueryOptions(productId: number, fields: Record<string, string>) {
  return queryOptions({
    queryKey: ['catalog', 'get-variation', productId, fields],
    queryFn: () => getVariation(productId, fields),
  });
}

/** Asked only while `enabled` (a complete choice of a product whose page carries no variations). */
export function useVariationLookup(productId: number, fields: Record<string, string>, enabled: boolean) {
  return useQuery({ ...getVariationQueryOptions(productId, fields), enabled });
}

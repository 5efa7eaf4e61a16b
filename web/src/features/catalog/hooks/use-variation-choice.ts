// The shopper's choice of a variable product's options, and the variation it picks.
// The product's variation form says how each option is offered (swatches or a
// drop-down) and carries its variations with their stock, so a complete choice is
// matched in the page; a product with more variations than the page carries asks the
// shop (`get_variation`) for each complete choice instead, as the original does. The
// picked variation is then fetched for its own price, stock, image and limits.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Product } from '@/types/store-api';
import { useProductVariation } from '../api/get-product-variation';
import { useVariationLookup } from '../api/get-variation';
import { useVariationForm, variationFormQueryKey, type AvailableVariation, type VariationForm } from '../api/get-variation-form';
import { carriedVariation } from '../lib/swatches';
import {
  choiceFromSearchParams,
  findMatchingVariation,
  isChoiceComplete,
  variationAttributes,
  type VariationAttribute,
  type VariationChoice,
} from '../lib/variations';

/** Swatches are read again this long after any change the page sends completes (stock may have moved). */
export const SWATCH_REFRESH_DELAY_MS = 1000;

export interface VariationChoiceState {
  attributes: VariationAttribute[];
  choice: VariationChoice;
  choose: (attribute: string, value: string) => void;
  clear: () => void;
  complete: boolean;
  /** A complete choice that matches no variation. */
  unmatched: boolean;
  /** The matched variation, once fetched. */
  variation: Product | undefined;
  loadingVariation: boolean;
  /** Form fields for the classic add-to-cart call: attribute_pa_color → blue. */
  fields: Record<string, string>;
  /** How the options are offered, and the variations the page carries (once known). */
  form: VariationForm | undefined;
  /** The variation the shop named for the complete choice, when the page carries none. */
  picked: AvailableVariation | null;
}

/**
 * Reads the form again `SWATCH_REFRESH_DELAY_MS` after any change the page sends
 * completes (an add to cart takes stock), as the original's swatches re-initialise.
 */
function useSwatchRefresh(productId: number, enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const unsubscribe = queryClient.getMutationCache().subscribe((event) => {
      if (event.type !== 'updated' || (event.action.type !== 'success' && event.action.type !== 'error')) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        void queryClient.invalidateQueries({ queryKey: variationFormQueryKey(productId) });
      }, SWATCH_REFRESH_DELAY_MS);
      timers.add(timer);
    });
    return () => {
      unsubscribe();
      for (const timer of timers) clearTimeout(timer);
    };
  }, [queryClient, productId, enabled]);
}

export function useVariationChoice(product: Product): VariationChoiceState {
  const [searchParams] = useSearchParams();
  const variable = product.type === 'variable';
  const attributes = useMemo(() => (variable ? variationAttributes(product) : []), [product, variable]);
  // A variation permalink (?attribute_pa_color=blue) preselects its options.
  const [choice, setChoice] = useState<VariationChoice>(() => choiceFromSearchParams(attributes, searchParams));
  const { data: form } = useVariationForm(product.id, variable);
  useSwatchRefresh(product.id, variable);

  const complete = attributes.length > 0 && isChoiceComplete(attributes, choice);
  const fields = useMemo(
    () => Object.fromEntries(attributes.map((attribute) => [attribute.fieldName, choice[attribute.name] ?? ''])),
    [attributes, choice],
  );
  const carried = form && form.variations !== false ? form.variations : null;
  const asksPerChoice = form?.variations === false;
  const lookup = useVariationLookup(product.id, fields, complete && asksPerChoice);
  const picked = asksPerChoice && complete && lookup.data ? lookup.data : null;

  let matchedId: number | null = null;
  let decided = true;
  if (complete) {
    if (carried) matchedId = carriedVariation(attributes, carried, choice)?.variation_id ?? null;
    else if (asksPerChoice) {
      matchedId = picked ? picked.variation_id : null;
      decided = lookup.data !== undefined;
    } else matchedId = findMatchingVariation(attributes, product.variations, choice)?.id ?? null;
  }
  const variationQuery = useProductVariation(matchedId);
  const variation = matchedId !== null && variationQuery.data?.id === matchedId ? variationQuery.data : undefined;

  return {
    attributes,
    choice,
    choose: (attribute, value) => setChoice((current) => ({ ...current, [attribute]: value })),
    clear: () => setChoice({}),
    complete,
    unmatched: complete && decided && matchedId === null,
    variation,
    loadingVariation: (matchedId !== null && variation === undefined && variationQuery.isFetching) || (complete && !decided && lookup.isFetching),
    fields,
    form,
    picked,
  };
}

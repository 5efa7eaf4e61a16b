// The shopper's choice of a variable product's options, and the variation it picks:
// once the choice is complete and matches a variation, that variation is fetched
// for its own price, stock, image and quantity limits.
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Product } from '@/types/store-api';
import { useProductVariation } from '../api/get-product-variation';
import {
  choiceFromSearchParams,
  findMatchingVariation,
  isChoiceComplete,
  variationAttributes,
  type VariationAttribute,
  type VariationChoice,
} from '../lib/variations';

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
}

export function useVariationChoice(product: Product): VariationChoiceState {
  const [searchParams] = useSearchParams();
  const attributes = useMemo(() => (product.type === 'variable' ? variationAttributes(product) : []), [product]);
  // A variation permalink (?attribute_pa_color=blue) preselects its options.
  const [choice, setChoice] = useState<VariationChoice>(() => choiceFromSearchParams(attributes, searchParams));

  const complete = attributes.length > 0 && isChoiceComplete(attributes, choice);
  const matched = complete ? findMatchingVariation(attributes, product.variations, choice) : null;
  const variationQuery = useProductVariation(matched?.id ?? null);
  const variation = matched && variationQuery.data?.id === matched.id ? variationQuery.data : undefined;

  const fields = useMemo(
    () => Object.fromEntries(attributes.map((attribute) => [attribute.fieldName, choice[attribute.name] ?? ''])),
    [attributes, choice],
  );

  return {
    attributes,
    choice,
    choose: (attribute, value) => setChoice((current) => ({ ...current, [attribute]: value })),
    clear: () => setChoice({}),
    complete,
    unmatched: complete && matched === null,
    variation,
    loadingVariation: matched !== null && variation === undefined && variationQuery.isFetching,
    fields,
  };
}

// The state of each swatch of a variable product: chosen, not offered with the other
// choices (no variation has that combination), out of stock, and how many are left
// when that is at or below the shop's threshold. Stock is known per variation when
// the page carries the variations; otherwise only the one a complete choice picked.
import type { AvailableVariation } from '../api/get-variation-form';
import { availableOptions, isChoiceComplete, type VariationAttribute, type VariationChoice } from './variations';
import type { VariationRef } from '@/types/store-api';

export interface SwatchState {
  value: string;
  selected: boolean;
  /** No variation has this option with the other choices made. */
  disabled: boolean;
  /** Every variation with this option and the other choices is out of stock. */
  outOfStock: boolean;
  /** The stock left of the variation this option completes, when at or below the threshold. */
  stockLeft: number | null;
}

/** The stock label the spec gives a swatch. */
export function stockLabel(left: number): string {
  return `Only ${left} left in stock`;
}

function accepts(variationValue: string | undefined, chosen: string): boolean {
  return !variationValue || variationValue.toLowerCase() === chosen.toLowerCase();
}

/** The carried variations that match `choice` on every chosen attribute. */
export function matchingVariations(
  attributes: VariationAttribute[],
  variations: AvailableVariation[],
  choice: VariationChoice,
): AvailableVariation[] {
  return variations.filter((variation) =>
    attributes.every((attribute) => {
      const chosen = choice[attribute.name] ?? '';
      return chosen === '' || accepts(variation.attributes[attribute.fieldName], chosen);
    }),
  );
}

/** The carried variation a complete choice picks (the first that matches, as the original does). */
export function carriedVariation(
  attributes: VariationAttribute[],
  variations: AvailableVariation[],
  choice: VariationChoice,
): AvailableVariation | null {
  if (!isChoiceComplete(attributes, choice)) return null;
  return matchingVariations(attributes, variations, choice)[0] ?? null;
}

/**
 * Every option's state for `attribute`. `carried` is the page's variations (null when
 * it carries none); `picked` the variation a lookup returned for the complete choice.
 */
export function swatchStates(
  attribute: VariationAttribute,
  attributes: VariationAttribute[],
  refs: VariationRef[],
  choice: VariationChoice,
  carried: AvailableVariation[] | null,
  picked: AvailableVariation | null,
  threshold: number,
): SwatchState[] {
  const offered = availableOptions(attribute, attributes, refs, choice);
  const chosen = choice[attribute.name] ?? '';
  return attribute.options.map((option) => {
    const withOption = { ...choice, [attribute.name]: option.value };
    let outOfStock = false;
    let left: number | null = null;
    if (carried) {
      const matches = matchingVariations(attributes, carried, withOption);
      outOfStock = matches.length > 0 && matches.every((variation) => !variation.is_in_stock);
      if (isChoiceComplete(attributes, withOption)) left = matches[0]?.variation_stock_left ?? null;
    } else if (picked && option.value === chosen) {
      outOfStock = !picked.is_in_stock;
      left = picked.variation_stock_left;
    }
    return {
      value: option.value,
      selected: option.value === chosen,
      disabled: !offered.has(option.value),
      outOfStock,
      stockLeft: left !== null && left > 0 && threshold > 0 && left <= threshold ? left : null,
    };
  });
}

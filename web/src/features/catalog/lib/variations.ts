// Choosing a variation of a variable product: which options can still be picked
// given the choices made so far, and which variation a complete choice is.
// A variation attribute with an empty value accepts any option ("any").

import type { Product, VariationRef } from '@/types/store-api';

export interface VariationOption {
  value: string;
  label: string;
}

export interface VariationAttribute {
  /** Display name, e.g. "Color"; also the key of the choice. */
  name: string;
  /** The form field the classic add-to-cart call expects, e.g. "attribute_pa_color". */
  fieldName: string;
  taxonomy: string | null;
  options: VariationOption[];
}

/** Attribute name → chosen option value; missing or "" means not chosen yet. */
export type VariationChoice = Record<string, string>;

/** WordPress's sanitize_title for plain attribute names: "Logo Style" → "logo-style". */
export function attributeSlug(name: string): string {
  return name
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9_\s-]/g, '')
    .replace(/[\s-]+/g, '-');
}

export function variationAttributes(product: Pick<Product, 'attributes'>): VariationAttribute[] {
  return product.attributes
    .filter((attribute) => attribute.has_variations)
    .map((attribute) => ({
      name: attribute.name,
      taxonomy: attribute.taxonomy,
      fieldName: `attribute_${attribute.taxonomy ?? attributeSlug(attribute.name)}`,
      options: attribute.terms.map((term) => ({ value: term.slug, label: term.name })),
    }));
}

// Variations name their attributes by display name; taxonomy and field names are
// accepted too so either spelling from the server works.
function refersTo(name: string, attribute: VariationAttribute): boolean {
  const key = name.toLowerCase();
  return (
    key === attribute.name.toLowerCase() ||
    key === attribute.fieldName.toLowerCase() ||
    (attribute.taxonomy !== null && key === attribute.taxonomy.toLowerCase())
  );
}

/** The variation's value for an attribute; "" (any) when it does not name it. */
function valueOf(variation: VariationRef, attribute: VariationAttribute): string {
  return variation.attributes.find((entry) => refersTo(entry.name, attribute))?.value ?? '';
}

function accepts(variationValue: string, chosen: string): boolean {
  return variationValue === '' || variationValue.toLowerCase() === chosen.toLowerCase();
}

function matchesChoice(
  variation: VariationRef,
  attributes: VariationAttribute[],
  choice: VariationChoice,
  ignore?: string,
): boolean {
  return attributes.every((attribute) => {
    const chosen = choice[attribute.name] ?? '';
    if (attribute.name === ignore || chosen === '') return true;
    return accepts(valueOf(variation, attribute), chosen);
  });
}

/**
 * The option values of one attribute that some variation still offers, given the
 * choices made for the other attributes. Options outside this set are disabled.
 */
export function availableOptions(
  attribute: VariationAttribute,
  attributes: VariationAttribute[],
  variations: VariationRef[],
  choice: VariationChoice,
): Set<string> {
  const available = new Set<string>();
  for (const variation of variations) {
    if (!matchesChoice(variation, attributes, choice, attribute.name)) continue;
    const value = valueOf(variation, attribute);
    if (value === '') return new Set(attribute.options.map((option) => option.value));
    const option = attribute.options.find((candidate) => candidate.value.toLowerCase() === value.toLowerCase());
    if (option) available.add(option.value);
  }
  return available;
}

export function isChoiceComplete(attributes: VariationAttribute[], choice: VariationChoice): boolean {
  return attributes.every((attribute) => (choice[attribute.name] ?? '') !== '');
}

/** The first variation a complete choice matches, as the original shop picks it; null otherwise. */
export function findMatchingVariation(
  attributes: VariationAttribute[],
  variations: VariationRef[],
  choice: VariationChoice,
): VariationRef | null {
  if (!isChoiceComplete(attributes, choice)) return null;
  return variations.find((variation) => matchesChoice(variation, attributes, choice)) ?? null;
}

/** A choice preset from an address such as ?attribute_pa_color=blue (cart item permalinks use these). */
export function choiceFromSearchParams(attributes: VariationAttribute[], params: URLSearchParams): VariationChoice {
  const choice: VariationChoice = {};
  for (const attribute of attributes) {
    const value = params.get(attribute.fieldName);
    const option = value ? attribute.options.find((candidate) => candidate.value.toLowerCase() === value.toLowerCase()) : undefined;
    if (option) choice[attribute.name] = option.value;
  }
  return choice;
}

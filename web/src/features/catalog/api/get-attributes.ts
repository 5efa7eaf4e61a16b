// GET /products/attributes and GET /products/attributes/{id}/terms: the shop's
// global attributes (Color, Size, …) and their terms, for the filter panel.
import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { storeApiGet } from '@/lib/api-client';

export interface ProductAttribute {
  id: number;
  name: string;
  /** `pa_` plus the attribute's slug. */
  taxonomy: string;
  count: number;
}

export interface AttributeTerm {
  id: number;
  name: string;
  slug: string;
  count: number;
}

export async function getAttributes(): Promise<ProductAttribute[]> {
  const { data } = await storeApiGet<ProductAttribute[]>('/products/attributes');
  return data;
}

export function getAttributesQueryOptions() {
  return queryOptions({
    queryKey: ['catalog', 'attributes'],
    queryFn: getAttributes,
    staleTime: 5 * 60_000,
  });
}

export async function getAttributeTerms(id: number): Promise<AttributeTerm[]> {
  const { data } = await storeApiGet<AttributeTerm[]>(`/products/attributes/${id}/terms`);
  return data;
}

export function getAttributeTermsQueryOptions(id: number) {
  return queryOptions({
    queryKey: ['catalog', 'attributes', id, 'terms'],
    queryFn: () => getAttributeTerms(id),
    staleTime: 5 * 60_000,
  });
}

export interface AttributeWithTerms extends ProductAttribute {
  terms: AttributeTerm[];
}

/** Every global attribute with its terms; those still loading are left out. */
export function useAttributesWithTerms(): AttributeWithTerms[] {
  const { data: attributes = [] } = useQuery(getAttributesQueryOptions());
  const terms = useQueries({ queries: attributes.map((attribute) => getAttributeTermsQueryOptions(attribute.id)) });
  return attributes.flatMap((attribute, index) => {
    const loaded = terms[index]?.data;
    return loaded ? [{ ...attribute, terms: loaded }] : [];
  });
}

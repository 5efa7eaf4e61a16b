// GET contact-forms/{id}/feedback/schema: the rules the browser checks a form against
// before sending it (the server checks them again on receipt).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SwvSchema } from '../lib/swv-rules';
import { contactFetch } from './contact-api';

export async function getContactFormSchema(id: number): Promise<SwvSchema> {
  const schema = await contactFetch<SwvSchema>(`/contact-forms/${id}/feedback/schema`);
  return { ...schema, rules: schema?.rules ?? [] };
}

export function getContactFormSchemaQueryOptions(id: number) {
  return queryOptions({
    queryKey: ['contact', 'schema', id],
    queryFn: () => getContactFormSchema(id),
    staleTime: 5 * 60_000,
  });
}

export function useContactFormSchema(id: number) {
  return useQuery(getContactFormSchemaQueryOptions(id));
}

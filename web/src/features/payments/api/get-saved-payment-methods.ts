// GET /account/payment-methods: the logged-in customer's saved payment methods. Coming
// back from a setup the page confirmed after a challenge, `setup_intent` names it and
// the shop keeps its method before answering.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { settings } from '@/config/settings';
import { restGet } from '@/lib/api-client';
import type { SavedPaymentMethod } from './get-page-settings';

export const savedPaymentMethodsQueryKey = (accountId: number = settings.account.user_id) => ['payments', 'saved-methods', accountId] as const;

export async function getSavedPaymentMethods(setupIntent?: string): Promise<SavedPaymentMethod[]> {
  const query = setupIntent ? `?setup_intent=${encodeURIComponent(setupIntent)}` : '';
  const { data } = await restGet<SavedPaymentMethod[]>(`/account/payment-methods${query}`);
  return data;
}

/** One list per account; the add form drops it before coming back, so the fetch that
 *  fills it again is the one that names the setup. */
export function getSavedPaymentMethodsQueryOptions(setupIntent?: string) {
  return queryOptions({ queryKey: savedPaymentMethodsQueryKey(), queryFn: () => getSavedPaymentMethods(setupIntent) });
}

export function useSavedPaymentMethods(setupIntent?: string) {
  return useQuery(getSavedPaymentMethodsQueryOptions(setupIntent));
}

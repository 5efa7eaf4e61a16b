// GET /account: the logged-in customer with their saved addresses (401 for guests).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { restGet } from '@/lib/api-client';
import type { AccountProfile } from './account-types';

export const accountQueryKey = ['account'] as const;

export async function getAccount(): Promise<AccountProfile> {
  const { data } = await restGet<AccountProfile>('/account');
  return data;
}

export function getAccountQueryOptions() {
  return queryOptions({ queryKey: accountQueryKey, queryFn: getAccount });
}

export function useAccount() {
  return useQuery(getAccountQueryOptions());
}

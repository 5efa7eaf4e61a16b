// POST /account/details: name, display name, e-mail and, optionally, a new password.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { restPost } from '@/lib/api-client';
import type { AccountUser } from './account-types';
import { accountQueryKey } from './get-account';

export interface AccountDetailsInput {
  first_name: string;
  last_name: string;
  display_name: string;
  email: string;
  password_current: string;
  password_1: string;
  password_2: string;
}

export function updateAccountDetails(input: AccountDetailsInput): Promise<{ message: string; user: AccountUser }> {
  return restPost<{ message: string; user: AccountUser }>('/account/details', input);
}

export function useUpdateAccountDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAccountDetails,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountQueryKey }),
  });
}

// POST /account/register: a new customer account; the visitor is logged in with it.
import { useMutation } from '@tanstack/react-query';
import { restPost } from '@/lib/api-client';
import { leavePage } from '@/lib/leave-page';
import type { AccountUser } from './account-types';

export interface RegisterInput {
  email: string;
  password: string;
  first_name?: string;
  last_name?: string;
}

export function register(input: RegisterInput): Promise<{ user: AccountUser }> {
  return restPost<{ user: AccountUser }>('/account/register', input);
}

export function useRegister(redirectTo: string) {
  return useMutation({ mutationFn: register, onSuccess: () => leavePage(redirectTo) });
}

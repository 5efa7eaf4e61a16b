// POST /account/login. A successful login changes the visitor's nonces, so the page
// is loaded afresh (as the original shop's form post does) wherever it happens.
import { useMutation } from '@tanstack/react-query';
import { restPost } from '@/lib/api-client';
import { leavePage } from '@/lib/leave-page';
import type { AccountUser } from './account-types';

export interface LogInInput {
  username: string;
  password: string;
  remember: boolean;
}

export function logIn(input: LogInInput): Promise<{ user: AccountUser }> {
  return restPost<{ user: AccountUser }>('/account/login', input);
}

export function useLogIn(redirectTo: string) {
  return useMutation({
    mutationFn: logIn,
    onSuccess: () => leavePage(redirectTo),
  });
}

// POST /account/logout, then a fresh page load (new nonces for a guest).
import { useMutation } from '@tanstack/react-query';
import { restPost } from '@/lib/api-client';
import { leavePage } from '@/lib/leave-page';

export function logOut(): Promise<unknown> {
  return restPost('/account/logout', {});
}

export function useLogOut(redirectTo: string) {
  return useMutation({ mutationFn: logOut, onSettled: () => leavePage(redirectTo) });
}

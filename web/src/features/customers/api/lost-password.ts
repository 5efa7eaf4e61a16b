// POST /account/lost-password and /account/reset-password: the e-mailed reset link
// and the new password it leads to.
import { useMutation } from '@tanstack/react-query';
import { restPost } from '@/lib/api-client';

export function requestPasswordReset(userLogin: string): Promise<{ message: string }> {
  return restPost<{ message: string }>('/account/lost-password', { user_login: userLogin });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

export interface ResetPasswordInput {
  login: string;
  key: string;
  password: string;
  password_confirm: string;
}

export function resetPassword(input: ResetPasswordInput): Promise<{ message?: string }> {
  return restPost<{ message?: string }>('/account/reset-password', input);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}

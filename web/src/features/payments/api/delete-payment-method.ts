// POST /account/payment-methods/{id}/delete: forgets a saved method; answers the list.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { restPost } from '@/lib/api-client';
import type { SavedPaymentMethod } from './get-page-settings';
import { savedPaymentMethodsQueryKey } from './get-saved-payment-methods';

export function deletePaymentMethod(id: number): Promise<SavedPaymentMethod[]> {
  return restPost<SavedPaymentMethod[]>(`/account/payment-methods/${id}/delete`, {});
}

export function useDeletePaymentMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePaymentMethod,
    onSuccess: (list) => queryClient.setQueryData(savedPaymentMethodsQueryKey(), list),
  });
}

// POST /account/payment-methods/{id}/default: makes a saved method the default; answers the list.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { restPost } from '@/lib/api-client';
import type { SavedPaymentMethod } from './get-page-settings';
import { savedPaymentMethodsQueryKey } from './get-saved-payment-methods';

export function setDefaultPaymentMethod(id: number): Promise<SavedPaymentMethod[]> {
  return restPost<SavedPaymentMethod[]>(`/account/payment-methods/${id}/default`, {});
}

export function useSetDefaultPaymentMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDefaultPaymentMethod,
    onSuccess: (list) => queryClient.setQueryData(savedPaymentMethodsQueryKey(), list),
  });
}

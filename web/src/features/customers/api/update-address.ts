// POST /account/address/{billing|shipping}: a saved address. Refusals name the fields
// (data.field, or data.errors [{field_id, message}]).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { restPost } from '@/lib/api-client';
import type { StoreAddress } from '@/types/store-api';
import { accountQueryKey } from './get-account';

export type AddressType = 'billing' | 'shipping';

export function updateAddress(type: AddressType, address: Partial<StoreAddress>): Promise<{ message: string; address: StoreAddress }> {
  return restPost<{ message: string; address: StoreAddress }>(`/account/address/${type}`, address);
}

export function useUpdateAddress(type: AddressType) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (address: Partial<StoreAddress>) => updateAddress(type, address),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountQueryKey }),
  });
}

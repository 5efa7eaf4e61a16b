// POST /?wc-ajax=remove_from_cart: the mini-cart's remove button. As in the original
// shop, when the call fails or answers without fragments the shopper follows the
// remove link instead: the cart page, which removes the item itself (?remove_item=).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { settings } from '@/config/settings';
import { wcAjax } from '@/lib/api-client';
import type { FragmentsResponse } from '@/types/store-api';
import { rememberCartHash } from '../lib/cart-cache';
import { enqueueCartRequest } from '../lib/request-queue';
import { cartQueryKey } from './get-cart';

export function removeLink(key: string): string {
  return `${settings.cart_url}?remove_item=${encodeURIComponent(key)}`;
}

export function removeFromCart(key: string): Promise<FragmentsResponse> {
  return enqueueCartRequest(() => wcAjax<FragmentsResponse>('remove_from_cart', { cart_item_key: key }));
}

export function useRemoveFromCart() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  return useMutation({
    mutationFn: removeFromCart,
    onSuccess: async (response, key) => {
      if (!response || typeof response !== 'object' || !response.fragments) {
        navigate(removeLink(key));
        return;
      }
      rememberCartHash(response.cart_hash ?? '');
      // Keeps the item blocked until the refreshed cart no longer lists it.
      await queryClient.invalidateQueries({ queryKey: cartQueryKey });
    },
    onError: (_error, key) => navigate(removeLink(key)),
  });
}

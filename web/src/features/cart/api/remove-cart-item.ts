// POST /cart/remove-item: removing a line on the cart page.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, storeApiPost } from '@/lib/api-client';
import type { Cart } from '@/types/store-api';
import { enqueueCartRequest } from '../lib/request-queue';
import { setCart } from './get-cart';

export function removeCartItem(key: string): Promise<Cart> {
  return enqueueCartRequest(() => storeApiPost<Cart>('/cart/remove-item', { key }));
}

export function useRemoveCartItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCartItem,
    onSuccess: (cart) => setCart(queryClient, cart),
    onError: (error) => {
      if (error instanceof ApiError && error.data?.cart) setCart(queryClient, error.data.cart);
    },
  });
}

// POST /cart/update-item: a new quantity for a cart line (the cart page).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, storeApiPost } from '@/lib/api-client';
import type { Cart } from '@/types/store-api';
import { enqueueCartRequest } from '../lib/request-queue';
import { setCart } from './get-cart';

export function updateCartItem({ key, quantity }: { key: string; quantity: number }): Promise<Cart> {
  return enqueueCartRequest(() => storeApiPost<Cart>('/cart/update-item', { key, quantity }));
}

export function useUpdateCartItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCartItem,
    onSuccess: (cart) => setCart(queryClient, cart),
    // Errors such as "not enough stock" come with the cart as it stands; show that.
    onError: (error) => {
      if (error instanceof ApiError && error.data?.cart) setCart(queryClient, error.data.cart);
    },
  });
}

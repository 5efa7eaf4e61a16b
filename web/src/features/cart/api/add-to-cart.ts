// POST /?wc-ajax=add_to_cart: the classic add-to-cart call the product cards and
// the product page use, queued behind any other cart write of this page.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { settings } from '@/config/settings';
import { ApiError, wcAjax } from '@/lib/api-client';
import { leavePage } from '@/lib/leave-page';
import { announce } from '@/lib/screen-reader';
import type { AddToCartRequest } from '@/types/add-to-cart';
import type { FragmentsResponse } from '@/types/store-api';
import { ADD_TO_CART_FAILED, addedToCartMessage, addToCartOutcome, type AddToCartOutcome } from '../lib/add-to-cart-outcome';
import { rememberCartHash } from '../lib/cart-cache';
import { enqueueCartRequest } from '../lib/request-queue';
import { cartQueryKey } from './get-cart';

export type AddToCartInput = Pick<AddToCartRequest, 'productId' | 'quantity' | 'variationId' | 'attributes'>;

/** The form fields the shop expects; a variation is named by its own id, as the original shop reads it. */
export function addToCartFields({ productId, quantity, variationId, attributes }: AddToCartInput): Record<string, string | number> {
  return {
    product_id: variationId ?? productId,
    quantity,
    ...(variationId ? { variation_id: variationId, ...attributes } : {}),
  };
}

export function addToCart(input: AddToCartInput): Promise<FragmentsResponse> {
  return enqueueCartRequest(() => wcAjax<FragmentsResponse>('add_to_cart', addToCartFields(input)));
}

export function useAddToCart() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  return useMutation({
    mutationFn: async (request: AddToCartRequest): Promise<AddToCartOutcome> => {
      const outcome = addToCartOutcome(
        await addToCart(request),
        settings.cart_redirect_after_add,
        window.location.pathname,
      );
      if (outcome.kind === 'failed') {
        throw new ApiError(outcome.message ?? ADD_TO_CART_FAILED, 'add_to_cart_failed', 400);
      }
      return outcome;
    },
    onSuccess: async (outcome, request) => {
      switch (outcome.kind) {
        case 'go-to-product':
          leavePage(outcome.url);
          return;
        case 'go-to-cart':
          rememberCartHash(outcome.cartHash);
          await queryClient.invalidateQueries({ queryKey: cartQueryKey });
          navigate(settings.cart_url);
          return;
        case 'added':
          rememberCartHash(outcome.cartHash);
          // Returning this keeps the button busy until the header shows the new cart.
          await queryClient.invalidateQueries({ queryKey: cartQueryKey });
          announce(addedToCartMessage(request.productName));
          return;
      }
    },
  });
}

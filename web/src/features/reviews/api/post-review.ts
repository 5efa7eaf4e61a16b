// POST /wp-json/ferroshop/v1/products/{id}/reviews: a review (`review`, `rating`) or a
// reply (`parent`); a guest also sends `reviewer` and `reviewer_email`. Answers the
// review and whether it shows at once (`approved`) or waits for staff (`hold`).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { restPost } from '@/lib/api-client';
import { productReviewsKey, type PageReview } from './get-product-reviews';

export interface NewReview {
  review: string;
  rating?: number;
  parent?: number;
  reviewer?: string;
  reviewer_email?: string;
  /** The field people never see, sent as the form has it (empty). */
  honeypot?: { field: string; value: string };
}

export interface PostedReview extends PageReview {
  product_id: number;
  status: 'approved' | 'hold';
}

export function postReview(productId: number, { honeypot, ...review }: NewReview): Promise<PostedReview> {
  const body: Record<string, unknown> = { ...review };
  if (honeypot) body[honeypot.field] = honeypot.value;
  return restPost<PostedReview>(`/products/${productId}/reviews`, body);
}

export function usePostReview(productId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (review: NewReview) => postReview(productId, review),
    // The list, the figures and the viewer's waiting reviews all follow.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productReviewsKey(productId) }),
  });
}

// GET /wp-json/ferroshop/v1/products/{id}/reviews?cpage=N: a page of a product's
// reviews, newest first, each with its replies; the figures (average, count, stars);
// the viewer's own reviews still waiting for staff; and what the review form needs.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { restGet } from '@/lib/api-client';

export interface PageReview {
  id: number;
  /** The review it answers; 0 for a review of the product. */
  parent: number;
  /** 1 for a review, 2 for a reply to it, … */
  depth: number;
  author: string;
  date: string;
  formatted_date: string;
  /** Escaped by the server: paragraphs and line breaks only. */
  content: string;
  rating: number | null;
  verified: boolean;
  is_staff: boolean;
}

export interface ThreadReview extends PageReview {
  replies: ThreadReview[];
}

export interface ReviewFormSettings {
  open: boolean;
  ratings_enabled: boolean;
  rating_required: boolean;
  rating_required_text: string;
  login_required: boolean;
  verified_only: boolean;
  show_verified_label: boolean;
  max_depth: number;
  max_length: number;
  can_review: boolean;
  cannot_review_reason: string | null;
  cannot_review_message: string | null;
  can_reply: boolean;
  cannot_reply_reason: string | null;
  cannot_reply_message: string | null;
  signed_in_as: string | null;
  nonce: string;
  nonce_field: string;
  honeypot_field: string;
  form_action: string;
}

export interface ProductReviews {
  product_id: number;
  enabled: boolean;
  average_rating: string;
  review_count: number;
  rating_count: number;
  rating_counts: { rating: number; count: number }[];
  page: number;
  total_pages: number;
  per_page: number;
  reviews: ThreadReview[];
  awaiting_moderation: PageReview[];
  form: ReviewFormSettings;
}

export async function getProductReviews(productId: number, page: number): Promise<ProductReviews> {
  const { data } = await restGet<ProductReviews>(`/products/${productId}/reviews`, page > 1 ? { cpage: page } : {});
  return data;
}

export const productReviewsKey = (productId: number) => ['reviews', productId] as const;

export function getProductReviewsQueryOptions(productId: number, page: number) {
  return queryOptions({
    queryKey: [...productReviewsKey(productId), page],
    queryFn: () => getProductReviews(productId, page),
  });
}

export function useProductReviews(productId: number, page: number) {
  return useQuery(getProductReviewsQueryOptions(productId, page));
}

/** The page of reviews an address asks for (`?cpage=N`, or `…/comment-page-N/`). */
export function reviewsPageOf(search: string, pathname = ''): number {
  const fromQuery = Number.parseInt(new URLSearchParams(search).get('cpage') ?? '', 10);
  const fromPath = Number.parseInt(/comment-page-(\d+)/.exec(pathname)?.[1] ?? '', 10);
  const page = Number.isFinite(fromQuery) ? fromQuery : fromPath;
  return Number.isFinite(page) && page >= 1 && page <= 1_000_000 ? page : 1;
}

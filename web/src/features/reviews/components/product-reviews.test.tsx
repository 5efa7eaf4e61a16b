import { screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetNonce } from '@/lib/api-client';
import { stubShop } from '@/test/fetch-stub';
import { fireEvent, setValue } from '@/test/events';
import { jsonResponse, renderWithApp } from '@/test/render';
import type { ProductReviews as Reviews, ThreadReview } from '../api/get-product-reviews';
import { AWAITING_APPROVAL, ProductReviews, pageWindow } from './product-reviews';

function review(id: number, overrides: Partial<ThreadReview> = {}): ThreadReview {
  return {
    id,
    parent: 0,
    depth: 1,
    author: `Author ${id}`,
    date: '2026-11-20T10:00:00',
    formatted_date: 'November 20, 2026',
    content: `<p>Review ${id} &lt;b&gt;</p>`,
    rating: 4,
    verified: false,
    is_staff: false,
    replies: [],
    ...overrides,
  };
}

function reviews(overrides: Partial<Reviews> = {}, form: Partial<Reviews['form']> = {}): Reviews {
  return {
    product_id: 7,
    enabled: true,
    average_rating: '4.50',
    review_count: 2,
    rating_count: 2,
    rating_counts: [5, 4, 3, 2, 1].map((rating) => ({ rating, count: rating === 5 || rating === 4 ? 1 : 0 })),
    page: 1,
    total_pages: 1,
    per_page: 10,
    reviews: [
      review(1, { verified: true, replies: [review(3, { parent: 1, depth: 2, rating: null, author: 'Shop team', is_staff: true })] }),
      review(2),
    ],
    awaiting_moderation: [],
    form: {
      open: true,
      ratings_enabled: true,
      rating_required: true,
      rating_required_text: 'Please select a rating',
      login_required: false,
      verified_only: false,
      show_verified_label: true,
      max_depth: 5,
      max_length: 5000,
      can_review: true,
      cannot_review_reason: null,
      cannot_review_message: null,
      can_reply: true,
      cannot_reply_reason: null,
      cannot_reply_message: null,
      signed_in_as: null,
      nonce: 'n',
      nonce_field: 'ferroshop-review-nonce',
      honeypot_field: 'website',
      form_action: '/wp-comments-post.php',
      ...form,
    },
    ...overrides,
  };
}

const posted: unknown[] = [];

function shop(answer: Reviews, postAnswer?: (body: Record<string, unknown>) => Response) {
  return stubShop(({ url, method, body }) => {
    if (method === 'GET' && url.includes('/products/7/reviews')) return jsonResponse(answer, { headers: { Nonce: 'n1' } });
    if (method === 'GET' && url.includes('/cart')) return jsonResponse({}, { headers: { Nonce: 'n1' } });
    if (method === 'POST' && url.includes('/products/7/reviews')) {
      const sent = JSON.parse(body) as Record<string, unknown>;
      posted.push(sent);
      return postAnswer ? postAnswer(sent) : jsonResponse({ ...review(9), status: 'hold', product_id: 7 }, { status: 201 });
    }
    return undefined;
  });
}

const render = () => renderWithApp(<ProductReviews productId={7} productName="Mug" />, { path: '/product/mug/' });

describe('a product’s reviews', () => {
  beforeEach(() => {
    resetNonce();
    vi.unstubAllGlobals();
    posted.length = 0;
  });

  it('lists the reviews with their figures, replies nested, verified owners and the shop marked', async () => {
    shop(reviews());
    render();
    expect(await screen.findByRole('heading', { name: '2 reviews for “Mug”' })).toBeTruthy();
    expect(screen.getAllByRole('img', { name: 'Rated 4.50 out of 5' }).length).toBeGreaterThan(0);
    const first = document.getElementById('comment-1')!;
    expect(first.textContent).toContain('(verified owner)');
    // The author's text is shown as the server escaped it, never as markup.
    expect(first.textContent).toContain('Review 1 <b>');
    expect(first.querySelector('b')).toBeNull();
    const reply = document.querySelector('#li-comment-1 ol.children #comment-3')!;
    expect(reply.textContent).toContain('Shop team');
    expect(reply.textContent).toContain('Shop');
    expect(screen.getByRole('table', { name: 'Ratings by number of stars' }).textContent).toContain('5 stars');
  });

  it('stops a review without a rating with the shop’s alert, and sends nothing', async () => {
    shop(reviews());
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    render();
    const form = await screen.findByRole('form', { name: 'Add a review of “Mug”' });
    setValue(within(form).getByLabelText(/Your review/), 'Nice.');
    fireEvent.submit(form);
    expect(alert).toHaveBeenCalledWith('Please select a rating');
    expect(posted).toHaveLength(0);
  });

  it('sends a guest’s review with its stars, and says it awaits approval', async () => {
    shop(reviews());
    render();
    const form = await screen.findByRole('form', { name: 'Add a review of “Mug”' });
    fireEvent.click(within(form).getByRole('radio', { name: /^4 of 5 stars/ }));
    expect((form.querySelector('select#rating') as HTMLSelectElement).value).toBe('4');
    setValue(within(form).getByLabelText(/Your review/), 'Keeps tea hot.');
    setValue(within(form).getByLabelText(/^Name/), 'Gwen');
    setValue(within(form).getByLabelText(/^Email/), 'gwen@example.test');
    fireEvent.submit(form);
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ review: 'Keeps tea hot.', rating: 4, reviewer: 'Gwen', reviewer_email: 'gwen@example.test', website: '' });
    expect((await screen.findByRole('status')).textContent).toContain(AWAITING_APPROVAL);
  });

  it('moves between stars with the arrow keys', async () => {
    shop(reviews());
    render();
    const form = await screen.findByRole('form', { name: 'Add a review of “Mug”' });
    const first = within(form).getByRole('radio', { name: /^1 of 5 stars/ });
    fireEvent.keyDown(first, { key: 'ArrowRight' });
    fireEvent.keyDown(within(form).getByRole('radio', { name: /^2 of 5 stars/ }), { key: 'End' });
    expect(within(form).getByRole('radio', { name: /^5 of 5 stars/ }).getAttribute('aria-checked')).toBe('true');
    expect(document.activeElement).toBe(within(form).getByRole('radio', { name: /^5 of 5 stars/ }));
  });

  it('shows the server’s word on a field it refuses', async () => {
    shop(reviews(), () =>
      jsonResponse(
        { code: 'ferroshop_review_email_invalid', message: 'Please enter a valid email address.', data: { status: 400, params: { reviewer_email: 'Please enter a valid email address.' } } },
        { status: 400 },
      ),
    );
    render();
    const form = await screen.findByRole('form', { name: 'Add a review of “Mug”' });
    fireEvent.click(within(form).getByRole('radio', { name: /^5 of 5 stars/ }));
    setValue(within(form).getByLabelText(/Your review/), 'Great.');
    setValue(within(form).getByLabelText(/^Name/), 'Gwen');
    setValue(within(form).getByLabelText(/^Email/), 'gwen@example.test');
    fireEvent.submit(form);
    await waitFor(() => expect(within(form).getByLabelText(/^Email/).getAttribute('aria-invalid')).toBe('true'));
    expect(form.textContent).toContain('Please enter a valid email address.');
  });

  it('opens a reply form under a review, without stars, and sends the reply with its parent', async () => {
    shop(reviews({}, { signed_in_as: 'Ada' }), (body) => jsonResponse({ ...review(10, { parent: Number(body.parent), depth: 2 }), status: 'approved', product_id: 7 }, { status: 201 }));
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Reply to Author 2' }));
    const form = screen.getByRole('form', { name: 'Reply to Author 2' });
    expect(within(form).queryByRole('radiogroup')).toBeNull();
    expect(within(form).queryByLabelText(/^Name/)).toBeNull();
    setValue(within(form).getByLabelText(/Your reply/), 'Agreed!');
    fireEvent.submit(form);
    await waitFor(() => expect(posted).toEqual([{ review: 'Agreed!', parent: 2, website: '' }]));
    expect((await screen.findByRole('status')).textContent).toContain('your reply has been posted');
  });

  it('says why a shopper may not review, and lists their own reviews waiting', async () => {
    shop(
      reviews(
        { awaiting_moderation: [review(20, { author: 'Me' })] },
        { can_review: false, cannot_review_reason: 'already_reviewed', cannot_review_message: 'You have already reviewed this product.' },
      ),
    );
    render();
    expect(await screen.findByText('You have already reviewed this product.')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Add a review of “Mug”' })).toBeNull();
    expect(screen.getByRole('list', { name: 'Your reviews awaiting approval' }).textContent).toContain(AWAITING_APPROVAL);
  });

  it('links the pages of reviews, and says when there are none', async () => {
    shop(reviews({ total_pages: 3, page: 1, review_count: 25 }));
    render();
    const pages = await screen.findByRole('navigation', { name: 'Review pages' });
    expect(within(pages).getByRole('link', { name: 'Reviews page 2' }).getAttribute('href')).toBe('/product/mug/?cpage=2#reviews');
    vi.unstubAllGlobals();
    shop(reviews({ reviews: [], review_count: 0, rating_count: 0 }));
    renderWithApp(<ProductReviews productId={7} productName="Mug" />, { path: '/product/mug/?cpage=1' });
    expect(await screen.findByText('There are no reviews yet.')).toBeTruthy();
  });

  it('links the first and last pages and two either side of this one', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 18)).toEqual([1, 2, 3, null, 18]);
    expect(pageWindow(9, 18)).toEqual([1, null, 7, 8, 9, 10, 11, null, 18]);
    expect(pageWindow(18, 18)).toEqual([1, null, 16, 17, 18]);
  });
});

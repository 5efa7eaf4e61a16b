// A product's reviews tab: the average and how many gave each number of stars, a page
// of reviews (newest first) with their threaded replies and a reply form under each,
// the shopper's own reviews still waiting for staff, pages of reviews (?cpage=N), and
// the review form, or why this shopper may not review. Rendered on the server with
// the page; the anchors (#reviews, #comment-ID) are the original's.
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { SafeHtml } from '@/components/ui/safe-html';
import { StarRating } from '@/components/ui/star-rating';
import { paths } from '@/config/paths';
import { reviewsPageOf, useProductReviews, type PageReview, type ProductReviews as Reviews, type ThreadReview } from '../api/get-product-reviews';
import type { PostedReview } from '../api/post-review';
import { ReviewForm } from './review-form';
import styles from './reviews.module.css';

export const AWAITING_APPROVAL = 'Your review is awaiting approval';


function Summary({ reviews }: { reviews: Reviews }) {
  const average = Number.parseFloat(reviews.average_rating) || 0;
  const most = Math.max(1, ...reviews.rating_counts.map((row) => row.count));
  return (
    <div className={styles.summary}>
      <div className={styles.average}>
        <span className={styles.averageNumber}>{average.toFixed(1)}</span>
        <StarRating rating={average} size="lg" />
        <span className={styles.muted}>
          {reviews.rating_count === 1 ? 'Based on 1 rating' : `Based on ${reviews.rating_count} ratings`}
        </span>
      </div>
      <table className={styles.bars}>
        <caption className="visually-hidden">Ratings by number of stars</caption>
        <tbody>
          {reviews.rating_counts.map((row) => (
            <tr key={row.rating}>
              <th scope="row">{row.rating === 1 ? '1 star' : `${row.rating} stars`}</th>
              <td>
                <span className={styles.bar} aria-hidden="true">
                  <span style={{ width: `${(row.count / most) * 100}%` }} />
                </span>
              </td>
              <td className={styles.barCount}>{row.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ReviewBody({ review, showVerified }: { review: PageReview; showVerified: boolean }) {
  return (
    <div className={`comment-text ${styles.body}`}>
      {review.rating !== null && review.depth === 1 && <StarRating rating={review.rating} size="sm" />}
      <p className={`meta ${styles.meta}`}>
        <strong className="woocommerce-review__author">{review.author}</strong>
        {review.is_staff && <span className={styles.badge}>Shop</span>}
        {showVerified && review.verified && <em className={`woocommerce-review__verified verified ${styles.verified}`}>(verified owner)</em>}
        <span className={styles.dash} aria-hidden="true">
          –
        </span>
        <time className="woocommerce-review__published-date" dateTime={review.date}>
          {review.formatted_date}
        </time>
      </p>
      <SafeHtml html={review.content} className={`description ${styles.text}`} />
    </div>
  );
}

function ReviewItem({
  review,
  reviews,
  productName,
  replyingTo,
  setReplyingTo,
  onPosted,
}: {
  review: ThreadReview;
  reviews: Reviews;
  productName: string;
  replyingTo: number | null;
  setReplyingTo: (id: number | null) => void;
  onPosted: (posted: PostedReview) => void;
}) {
  const { form } = reviews;
  const canReply = form.can_reply && review.depth < form.max_depth;
  return (
    <li id={`li-comment-${review.id}`} className={`review ${review.depth > 1 ? 'comment' : ''} depth-${review.depth}`}>
      <article id={`comment-${review.id}`} className={`comment_container ${styles.item}`} aria-label={`${review.depth > 1 ? 'Reply' : 'Review'} by ${review.author}`}>
        <span className={styles.avatar} aria-hidden="true">
          {review.author.trim().charAt(0).toUpperCase() || '?'}
        </span>
        <div>
          <ReviewBody review={review} showVerified={form.show_verified_label} />
          {canReply && replyingTo !== review.id && (
            <button type="button" className={`comment-reply-link ${styles.replyLink}`} onClick={() => setReplyingTo(review.id)} aria-label={`Reply to ${review.author}`}>
              Reply
            </button>
          )}
        </div>
      </article>
      {replyingTo === review.id && (
        <div className={styles.replyForm}>
          <ReviewForm
            productId={reviews.product_id}
            productName={productName}
            settings={form}
            reply={{ id: review.id, author: review.author }}
            onPosted={onPosted}
            onCancel={() => setReplyingTo(null)}
          />
        </div>
      )}
      {review.replies.length > 0 && (
        <ol className={`children ${styles.children}`}>
          {review.replies.map((child) => (
            <ReviewItem key={child.id} review={child} reviews={reviews} productName={productName} replyingTo={replyingTo} setReplyingTo={setReplyingTo} onPosted={onPosted} />
          ))}
        </ol>
      )}
    </li>
  );
}

/** The page numbers to link: the first, the last, and two either side of this one;
 *  null where some are left out. */
export function pageWindow(page: number, total: number): (number | null)[] {
  const shown: (number | null)[] = [];
  for (let n = 1; n <= total; n += 1) {
    if (n === 1 || n === total || Math.abs(n - page) <= 2) shown.push(n);
    else if (shown[shown.length - 1] !== null) shown.push(null);
  }
  return shown;
}

function Pages({ page, total, pathname }: { page: number; total: number; pathname: string }) {
  if (total <= 1) return null;
  const to = (n: number) => `${pathname}${n > 1 ? `?cpage=${n}` : ''}#reviews`;
  return (
    <nav className={`woocommerce-pagination ${styles.pages}`} aria-label="Review pages">
      {page > 1 && (
        <Link to={to(page - 1)} className={styles.page}>
          ← Newer
        </Link>
      )}
      {pageWindow(page, total).map((n, i) =>
        n === null ? (
          <span key={`gap-${i}`} className={styles.gap} aria-hidden="true">
            …
          </span>
        ) : n === page ? (
          <span key={n} className={`${styles.page} ${styles.current}`} aria-current="page">
            {n}
          </span>
        ) : (
          <Link key={n} to={to(n)} className={styles.page} aria-label={`Reviews page ${n}`}>
            {n}
          </Link>
        ),
      )}
      {page < total && (
        <Link to={to(page + 1)} className={styles.page}>
          Older →
        </Link>
      )}
    </nav>
  );
}

function CannotReview({ form }: { form: Reviews['form'] }) {
  if (!form.cannot_review_message) return null;
  return (
    <p className={`must-log-in ${styles.cannot}`}>
      {form.cannot_review_message}
      {form.cannot_review_reason === 'must_log_in' && (
        <>
          {' '}
          <Link to={paths.account()}>Log in</Link>
        </>
      )}
    </p>
  );
}

export function ProductReviews({ productId, productName }: { productId: number; productName: string }) {
  const { search, pathname } = useLocation();
  const page = reviewsPageOf(search, pathname);
  const { data: reviews, error } = useProductReviews(productId, page);
  const [replyingTo, setReplyingTo] = useState<number | null>(null);
  const [notice, setNotice] = useState<{ tone: 'success' | 'info'; text: string } | null>(null);
  const [posted, setPosted] = useState<number | null>(null);

  // Another page of reviews starts at the top of the reviews, not of the product.
  const shownPage = useRef(page);
  useEffect(() => {
    if (shownPage.current === page || !reviews || reviews.page !== page) return;
    shownPage.current = page;
    document.getElementById('reviews')?.scrollIntoView({ block: 'start' });
  }, [page, reviews]);

  // A review shown at once is brought into view once the list has it.
  useEffect(() => {
    if (posted === null) return;
    const element = document.getElementById(`comment-${posted}`);
    if (element) {
      element.scrollIntoView({ block: 'center' });
      setPosted(null);
    }
  }, [posted, reviews]);

  if (error && !reviews) return <Notice tone="error">{error.message}</Notice>;
  if (!reviews) return <p className={styles.muted} aria-busy="true">Loading reviews…</p>;
  if (!reviews.enabled) return <p className={styles.muted}>Reviews are closed.</p>;

  function onPosted(review: PostedReview) {
    setReplyingTo(null);
    if (review.status === 'approved') {
      setNotice({ tone: 'success', text: review.parent ? 'Thank you: your reply has been posted.' : 'Thank you: your review has been posted.' });
      setPosted(review.id);
    } else {
      setNotice({ tone: 'info', text: `${AWAITING_APPROVAL}. It will show here once the shop has checked it.` });
    }
  }

  const { form } = reviews;
  const count = reviews.review_count;
  return (
    <div id="reviews" className={`woocommerce-Reviews ${styles.reviews}`}>
      <div id="comments" className={styles.list}>
        <h2 className={`woocommerce-Reviews-title ${styles.title}`}>
          {count === 0 ? 'Reviews' : count === 1 ? `1 review for “${productName}”` : `${count} reviews for “${productName}”`}
        </h2>
        {count > 0 && reviews.rating_count > 0 && <Summary reviews={reviews} />}
        {notice && (
          <Notice tone={notice.tone} onDismiss={() => setNotice(null)}>
            {notice.text}
          </Notice>
        )}
        {reviews.awaiting_moderation.length > 0 && (
          <ul className={styles.waiting} aria-label="Your reviews awaiting approval">
            {reviews.awaiting_moderation.map((review) => (
              <li key={review.id} className={styles.item}>
                <span className={styles.avatar} aria-hidden="true">
                  {review.author.trim().charAt(0).toUpperCase() || '?'}
                </span>
                <div>
                  <em className={`woocommerce-review__awaiting-approval ${styles.awaiting}`}>{AWAITING_APPROVAL}</em>
                  <ReviewBody review={review} showVerified={false} />
                </div>
              </li>
            ))}
          </ul>
        )}
        {reviews.reviews.length > 0 ? (
          <ol className={`commentlist ${styles.reviewList}`}>
            {reviews.reviews.map((review) => (
              <ReviewItem key={review.id} review={review} reviews={reviews} productName={productName} replyingTo={replyingTo} setReplyingTo={setReplyingTo} onPosted={onPosted} />
            ))}
          </ol>
        ) : (
          <p className={`woocommerce-noreviews ${styles.muted}`}>There are no reviews yet.</p>
        )}
        <Pages page={reviews.page} total={reviews.total_pages} pathname={pathname} />
      </div>
      <div id="review_form_wrapper" className={styles.formWrapper}>
        {form.can_review ? (
          <div id="review_form">
            <ReviewForm productId={productId} productName={productName} settings={form} onPosted={onPosted} />
          </div>
        ) : (
          <CannotReview form={form} />
        )}
      </div>
    </div>
  );
}

// The review form, and the reply form under a review: the original's form posted to
// /wp-comments-post.php (so it works without scripts), sent as the shop's JSON call
// when scripts run. A rating left empty while ratings are required is stopped with an
// alert in the shop's words; the server checks everything and answers field by field.
// A review that waits for staff says so; one shown at once joins the list.
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormRow, TextArea, TextInput, statusAria } from '@/components/ui/form-field';
import { Notice } from '@/components/ui/notice';
import { settings as shopSettings } from '@/config/settings';
import { ApiError, currentNonce } from '@/lib/api-client';
import { SESSION_NONCE_SLOT } from '@/lib/session-nonce';
import type { FieldStatus } from '@/types/field-status';
import type { ReviewFormSettings } from '../api/get-product-reviews';
import { usePostReview, type PostedReview } from '../api/post-review';
import { checkReview, type ReviewField, type ReviewValues } from '../lib/review-check';
import { RatingInput } from './rating-input';
import styles from './reviews.module.css';

const EMPTY: ReviewValues = { rating: '', comment: '', author: '', email: '' };

/** The server's field names for the form's fields. */
const SERVER_FIELDS: Record<string, ReviewField> = { review: 'comment', rating: 'rating', reviewer: 'author', reviewer_email: 'email' };

export function ReviewForm({
  productId,
  productName,
  settings,
  reply,
  onPosted,
  onCancel,
}: {
  productId: number;
  productName: string;
  settings: ReviewFormSettings;
  /** The review answered, for the reply form. */
  reply?: { id: number; author: string };
  onPosted: (review: PostedReview) => void;
  onCancel?: () => void;
}) {
  const id = useId();
  const [values, setValues] = useState<ReviewValues>(EMPTY);
  const [problems, setProblems] = useState<Partial<Record<ReviewField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const post = usePostReview(productId);
  const guest = settings.signed_in_as === null;
  const hasRating = !reply && settings.ratings_enabled;
  const field = (name: ReviewField) => `${id}-${name}`;
  const status = (name: ReviewField): FieldStatus | undefined => (problems[name] ? { valid: false, code: 'invalid', message: problems[name]! } : undefined);
  const set = (name: ReviewField) => (value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    setProblems((current) => ({ ...current, [name]: undefined }));
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (post.isPending) return;
    const check = checkReview(values, { hasRating, ratingRequired: settings.rating_required, ratingRequiredText: settings.rating_required_text, guest });
    if (check.alert) {
      window.alert(check.alert);
      return;
    }
    setProblems(check.problems);
    setFailure(null);
    if (Object.keys(check.problems).length > 0) return;
    const honeypot = (event.currentTarget.elements.namedItem(settings.honeypot_field) as HTMLInputElement | null)?.value ?? '';
    try {
      const posted = await post.mutateAsync({
        review: values.comment,
        rating: hasRating && values.rating ? Number(values.rating) : undefined,
        parent: reply?.id,
        reviewer: guest ? values.author : undefined,
        reviewer_email: guest ? values.email : undefined,
        honeypot: { field: settings.honeypot_field, value: honeypot },
      });
      setValues(EMPTY);
      onPosted(posted);
    } catch (error) {
      const params = error instanceof ApiError ? (error.data?.params as Record<string, string> | undefined) : undefined;
      const byField: Partial<Record<ReviewField, string>> = {};
      for (const [name, message] of Object.entries(params ?? {})) {
        const mine = SERVER_FIELDS[name];
        if (mine) byField[mine] = message;
      }
      setProblems(byField);
      setFailure(Object.keys(byField).length > 0 ? null : error instanceof Error ? error.message : 'Your review could not be posted. Please try again.');
    }
  }

  const title = reply ? `Reply to ${reply.author}` : `Add a review`;
  return (
    <form
      method="post"
      action={settings.form_action}
      className={`comment-form ${styles.form}`}
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => void onSubmit(event)}
      noValidate
    >
      <h3 id={`${id}-title`} className={`comment-reply-title ${styles.formTitle}`}>
        {reply ? title : `Add a review of “${productName}”`}
      </h3>
      {!reply && <p className={styles.formNote}>Your email address will not be published. Required fields are marked *</p>}
      {failure && <Notice tone="error">{failure}</Notice>}
      {hasRating && (
        <div className={`comment-form-rating ${styles.ratingRow}`}>
          <span id={`${id}-rating-label`} className={styles.label}>
            Your rating{settings.rating_required && <abbr className="required" title="required"> *</abbr>}
          </span>
          <RatingInput value={values.rating} onChange={set('rating')} required={settings.rating_required} labelId={`${id}-rating-label`} />
          {problems.rating && <span className={styles.fieldError}>{problems.rating}</span>}
        </div>
      )}
      <FormRow fieldId={field('comment')} label={reply ? 'Your reply' : 'Your review'} required status={status('comment')} className="comment-form-comment">
        <TextArea
          id={field('comment')}
          name="comment"
          rows={reply ? 4 : 6}
          maxLength={settings.max_length}
          required
          value={values.comment}
          onInput={(event) => set('comment')(event.currentTarget.value)}
          {...statusAria(field('comment'), status('comment'))}
        />
      </FormRow>
      {guest && (
        <div className={styles.guestFields}>
          <FormRow fieldId={field('author')} label="Name" required status={status('author')} className="comment-form-author">
            <TextInput id={field('author')} name="author" autoComplete="name" required value={values.author} onInput={(event) => set('author')(event.currentTarget.value)} {...statusAria(field('author'), status('author'))} />
          </FormRow>
          <FormRow fieldId={field('email')} label="Email" required status={status('email')} className="comment-form-email">
            <TextInput id={field('email')} name="email" type="email" autoComplete="email" required value={values.email} onInput={(event) => set('email')(event.currentTarget.value)} {...statusAria(field('email'), status('email'))} />
          </FormRow>
        </div>
      )}
      {/* People never see this field; a form that fills it in is not a person's. */}
      <div className={styles.honeypot} aria-hidden="true">
        <label htmlFor={`${id}-honeypot`}>Leave this field empty</label>
        <input id={`${id}-honeypot`} type="text" name={settings.honeypot_field} tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <input type="hidden" name="comment_post_ID" value={productId} />
      <input type="hidden" name="comment_parent" value={reply?.id ?? 0} />
      {/* The visitor's own nonce, for the form without scripts: a page rendered on the
          server may be sent to many visitors, so the server puts each one's nonce in
          its slot as it sends the page. */}
      <input type="hidden" name={settings.nonce_field} value={import.meta.env.SSR ? SESSION_NONCE_SLOT : (currentNonce() ?? shopSettings.store_api_nonce)} />
      <div className={`form-submit ${styles.actions}`}>
        <Button type="submit" id={reply ? undefined : 'submit'} aria-busy={post.isPending} disabled={post.isPending}>
          {reply ? 'Post reply' : 'Submit'}
        </Button>
        {onCancel && (
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel reply
          </Button>
        )}
      </div>
    </form>
  );
}

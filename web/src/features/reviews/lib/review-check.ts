// The review form's checks before it is sent, as the original's script makes them: a
// rating field that is empty while ratings are required stops the form with an
// alert in the shop's words. The rest (text, name, address) the server checks and
// answers field by field; the browser only checks what it knows for certain.

export interface ReviewValues {
  rating: string;
  comment: string;
  author: string;
  email: string;
}

export type ReviewField = keyof ReviewValues;

export interface ReviewCheck {
  /** Shown with the browser's alert, the form not sent (the missing rating). */
  alert: string | null;
  problems: Partial<Record<ReviewField, string>>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkReview(
  values: ReviewValues,
  { hasRating, ratingRequired, ratingRequiredText, guest }: { hasRating: boolean; ratingRequired: boolean; ratingRequiredText: string; guest: boolean },
): ReviewCheck {
  if (hasRating && ratingRequired && values.rating === '') return { alert: ratingRequiredText, problems: {} };
  const problems: ReviewCheck['problems'] = {};
  if (values.comment.trim() === '') problems.comment = 'Please type your review.';
  if (guest) {
    if (values.author.trim() === '') problems.author = 'Please enter your name.';
    if (values.email.trim() === '') problems.email = 'Please enter your email address.';
    else if (!EMAIL.test(values.email.trim())) problems.email = 'Please enter a valid email address.';
  }
  return { alert: null, problems };
}

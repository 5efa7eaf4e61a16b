import { describe, expect, it } from 'vitest';
import { checkReview } from './review-check';

const filled = { rating: '4', comment: 'Lovely mug.', author: 'Ada', email: 'ada@example.test' };
const rules = { hasRating: true, ratingRequired: true, ratingRequiredText: 'Please select a rating', guest: true };

describe('the review form’s checks', () => {
  it('stops a review without a rating with the shop’s text when ratings are required', () => {
    expect(checkReview({ ...filled, rating: '' }, rules)).toEqual({ alert: 'Please select a rating', problems: {} });
  });

  it('lets a review without a rating through when ratings are optional or the form has none', () => {
    expect(checkReview({ ...filled, rating: '' }, { ...rules, ratingRequired: false }).alert).toBeNull();
    expect(checkReview({ ...filled, rating: '' }, { ...rules, hasRating: false }).alert).toBeNull();
  });

  it('asks a guest for a name and a real address, a customer for neither', () => {
    expect(checkReview({ ...filled, author: ' ', email: 'not-an-address' }, rules).problems).toEqual({
      author: 'Please enter your name.',
      email: 'Please enter a valid email address.',
    });
    expect(checkReview({ ...filled, author: '', email: '' }, { ...rules, guest: false }).problems).toEqual({});
  });

  it('asks for the text', () => {
    expect(checkReview({ ...filled, comment: '   ' }, rules).problems).toEqual({ comment: 'Please type your review.' });
    expect(checkReview(filled, rules)).toEqual({ alert: null, problems: {} });
  });
});

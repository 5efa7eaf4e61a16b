// POST contact-forms/{id}/feedback: sends a form as multipart form data (the browser
// writes the boundary) and answers the verdict. The form carries the session's nonce
// in `_wpnonce`; a nonce the server no longer takes is answered with the current one,
// and the form is sent once more with it.
import type { QuizQuestions } from './get-contact-form';
import { ContactApiError, contactFetch } from './contact-api';

export interface InvalidFieldAnswer {
  field: string;
  message: string;
  idref: string | null;
  error_id: string;
}

export interface FeedbackAnswer {
  contact_form_id: number;
  /** mail_sent, mail_failed, validation_failed, acceptance_missing, spam, or another the shop adds. */
  status: string;
  message: string;
  /** The digest of what was kept; empty when nothing was. */
  posted_data_hash: string;
  into: string;
  invalid_fields: InvalidFieldAnswer[];
  quiz?: QuizQuestions;
}

const STALE_NONCE = 'rest_cookie_invalid_nonce';

/** The answer, or null when the server answered nothing (204). */
export async function sendFeedback(formId: number, payloadWith: (nonce: string) => FormData, nonce: string): Promise<FeedbackAnswer | null> {
  const post = (withNonce: string) =>
    contactFetch<FeedbackAnswer>(`/contact-forms/${formId}/feedback`, { method: 'POST', body: payloadWith(withNonce) });
  try {
    return await post(nonce);
  } catch (error) {
    if (error instanceof ContactApiError && error.code === STALE_NONCE && error.nonce && error.nonce !== nonce) return post(error.nonce);
    throw error;
  }
}

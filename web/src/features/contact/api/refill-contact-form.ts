// GET contact-forms/{id}/refill: what a form needs again once it has been reset — a
// fresh question for each quiz.
import type { QuizQuestions } from './get-contact-form';
import { contactFetch } from './contact-api';

export interface Refill {
  quiz?: QuizQuestions;
}

export async function refillContactForm(id: number): Promise<Refill> {
  return (await contactFetch<Refill>(`/contact-forms/${id}/refill`, { cache: 'no-store' })) ?? {};
}

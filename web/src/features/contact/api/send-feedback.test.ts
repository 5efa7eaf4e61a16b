import { describe, expect, it, vi } from 'vitest';
import { stubShop } from '@/test/fetch-stub';
import { jsonResponse } from '@/test/render';
import { ContactApiError, OFFLINE_MESSAGE } from './contact-api';
import { getContactFormSchema } from './get-contact-form-schema';
import { refillContactForm } from './refill-contact-form';
import { sendFeedback, type FeedbackAnswer } from './send-feedback';

const FEEDBACK = '/wp-json/contact-form-7/v1/contact-forms/1/feedback';

const sentAnswer: FeedbackAnswer = {
  contact_form_id: 1,
  status: 'mail_sent',
  message: 'Thank you for your message. It has been sent.',
  posted_data_hash: 'abc',
  into: '#wpcf7-f1-o1',
  invalid_fields: [],
};

function payloadWith(nonce: string): FormData {
  const data = new FormData();
  data.set('your-name', 'Ada');
  data.set('_wpnonce', nonce);
  return data;
}

async function failure(promise: Promise<unknown>): Promise<ContactApiError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ContactApiError);
  return error as ContactApiError;
}

describe('sending a contact form', () => {
  it('posts the form data itself, leaving the boundary to the browser', async () => {
    const { fetchMock } = stubShop(({ url, method }) => (method === 'POST' && url === FEEDBACK ? jsonResponse(sentAnswer) : undefined));
    expect(await sendFeedback(1, payloadWith, 'n1')).toEqual(sentAnswer);
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init?.body).toBeInstanceOf(FormData);
    expect((init?.body as FormData).get('_wpnonce')).toBe('n1');
    expect(new Headers(init?.headers).has('Content-Type')).toBe(false);
    expect(init?.credentials).toBe('same-origin');
  });

  it('passes any status on as the server named it', async () => {
    stubShop(() => jsonResponse({ ...sentAnswer, status: 'queued_for_review', message: 'Queued.' }));
    expect(await sendFeedback(1, payloadWith, 'n1')).toMatchObject({ status: 'queued_for_review', message: 'Queued.' });
  });

  it('says the shopper is probably offline when no answer comes', async () => {
    stubShop(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = await failure(sendFeedback(1, payloadWith, 'n1'));
    expect(error).toMatchObject({ code: 'fetch_error', message: OFFLINE_MESSAGE, status: 0 });
    expect(OFFLINE_MESSAGE).toBe('You are probably offline.');
  });

  it('says so when the answer is not JSON', async () => {
    stubShop(() => new Response('<html>Bad gateway</html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    const error = await failure(sendFeedback(1, payloadWith, 'n1'));
    expect(error).toMatchObject({ code: 'invalid_json', message: 'The response is not a valid JSON response.' });
  });

  it('returns nothing for a 204', async () => {
    stubShop(() => new Response(null, { status: 204 }));
    expect(await sendFeedback(1, payloadWith, 'n1')).toBeNull();
  });

  it('fails a status outside 2xx with the error’s own message', async () => {
    stubShop(() => jsonResponse({ code: 'rest_too_many_requests', message: 'Too many requests. Please wait a minute.', data: { status: 429 } }, { status: 429, headers: { 'Retry-After': '60' } }));
    const error = await failure(sendFeedback(1, payloadWith, 'n1'));
    expect(error).toMatchObject({ code: 'rest_too_many_requests', status: 429, message: 'Too many requests. Please wait a minute.' });
  });

  it('fails a status outside 2xx whose answer is not JSON as not JSON, and one without a message as unknown', async () => {
    stubShop(() => new Response('Bad gateway', { status: 502 }));
    expect(await failure(sendFeedback(1, payloadWith, 'n1'))).toMatchObject({ code: 'invalid_json', status: 502 });
    stubShop(() => jsonResponse({}, { status: 500 }));
    expect(await failure(sendFeedback(1, payloadWith, 'n1'))).toMatchObject({ code: 'unknown_error', message: 'An unknown error occurred.' });
  });

  it('sends once more with the session’s current nonce when the one sent has expired', async () => {
    const nonces: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const nonce = (init.body as FormData).get('_wpnonce');
        nonces.push(nonce);
        return nonce === 'fresh'
          ? jsonResponse(sentAnswer)
          : jsonResponse({ code: 'rest_cookie_invalid_nonce', message: 'Cookie check failed', data: { status: 403 } }, { status: 403, headers: { Nonce: 'fresh' } });
      }),
    );
    expect(await sendFeedback(1, payloadWith, 'stale')).toEqual(sentAnswer);
    expect(nonces).toEqual(['stale', 'fresh']);
  });

  it('gives up on a nonce refused twice', async () => {
    stubShop(() => jsonResponse({ code: 'rest_cookie_invalid_nonce', message: 'Cookie check failed', data: { status: 403 } }, { status: 403, headers: { Nonce: 'n1' } }));
    expect(await failure(sendFeedback(1, payloadWith, 'n1'))).toMatchObject({ status: 403, message: 'Cookie check failed' });
  });
});

describe('the form’s other calls', () => {
  it('read the schema, with no rules when it has none', async () => {
    stubShop(({ url }) => (url.endsWith('/contact-forms/1/feedback/schema') ? jsonResponse({ version: 'v', locale: 'en_US', rules: [{ rule: 'required', field: 'a', error: 'A!' }] }) : undefined));
    expect(await getContactFormSchema(1)).toEqual({ version: 'v', locale: 'en_US', rules: [{ rule: 'required', field: 'a', error: 'A!' }] });
    stubShop(() => new Response(null, { status: 204 }));
    expect(await getContactFormSchema(1)).toEqual({ rules: [] });
  });

  it('refill the quiz', async () => {
    stubShop(({ url }) => (url.endsWith('/contact-forms/1/refill') ? jsonResponse({ quiz: { quiz: ['2 + 2?', 't'] } }) : undefined));
    expect(await refillContactForm(1)).toEqual({ quiz: { quiz: ['2 + 2?', 't'] } });
  });
});

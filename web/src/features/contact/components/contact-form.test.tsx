import { screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetNonce } from '@/lib/api-client';
import { fireEvent, setValue } from '@/test/events';
import { jsonResponse, renderWithApp } from '@/test/render';
import type { ContactField, ContactFormDefinition } from '../api/get-contact-form';
import type { FeedbackAnswer } from '../api/send-feedback';
import type { SwvSchema } from '../lib/swv-rules';
import { ContactForm, ContactFormView } from './contact-form';

const DEMO_FIELDS: ContactField[] = [
  { type: 'text', name: 'your-name', label: 'Your name', required: true, autocomplete: 'name' },
  { type: 'email', name: 'your-email', label: 'Your email', required: true, autocomplete: 'email' },
  { type: 'text', name: 'your-subject', label: 'Subject', required: true },
  { type: 'textarea', name: 'your-message', label: 'Your message (optional)' },
  { type: 'acceptance', name: 'your-consent', content: 'I agree that the shop keeps my message to answer it.' },
];

const DEMO_SCHEMA: SwvSchema = {
  version: 'Contact Form 7 SWV Schema 2024-02',
  locale: 'en_US',
  rules: [
    { rule: 'required', field: 'your-name', error: 'Please fill out this field.' },
    { rule: 'maxlength', field: 'your-name', error: 'This field has a too long input.', threshold: 400 },
    { rule: 'required', field: 'your-email', error: 'Please fill out this field.' },
    { rule: 'email', field: 'your-email', error: 'Please enter an email address.' },
    { rule: 'required', field: 'your-subject', error: 'Please fill out this field.' },
    { rule: 'maxlength', field: 'your-message', error: 'This field has a too long input.', threshold: 2000 },
  ],
};

function definition(fields: ContactField[] = DEMO_FIELDS, overrides: Partial<ContactFormDefinition> = {}): ContactFormDefinition {
  return { id: 1, title: 'Contact form 1', locale: 'en_US', version: '5.9.8', fields, quiz: {}, honeypot: null, nonce: 'someone-elses-nonce', ...overrides };
}

function answer(status: string, overrides: Partial<FeedbackAnswer> = {}): FeedbackAnswer {
  const messages: Record<string, string> = {
    mail_sent: 'Thank you for your message. It has been sent.',
    validation_failed: 'One or more fields have an error. Please check and try again.',
  };
  return { contact_form_id: 1, status, message: messages[status] ?? `Status ${status}.`, posted_data_hash: '', into: '#wpcf7-f1-o1', invalid_fields: [], ...overrides };
}

interface Call {
  method: string;
  url: string;
  body: FormData | null;
}

/** The shop's calls for form 1, answered from the given form, schema and feedback; every call is recorded. */
function contactShop({
  form = definition(),
  schema = DEMO_SCHEMA,
  feedback = () => jsonResponse(answer('mail_sent', { posted_data_hash: 'hash-1' })),
  refill = () => jsonResponse({}),
}: {
  form?: ContactFormDefinition;
  schema?: SwvSchema;
  feedback?: (body: FormData) => Response | Promise<Response>;
  refill?: () => Response;
} = {}) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      const method = init.method ?? 'GET';
      const body = init.body instanceof FormData ? init.body : null;
      calls.push({ method, url, body });
      if (url === '/wp-json/ferroshop/v1/contact-forms/1') return jsonResponse(form, { headers: { Nonce: 'visitor-nonce' } });
      if (url.endsWith('/contact-forms/1/feedback/schema')) return jsonResponse(schema);
      if (url.endsWith('/contact-forms/1/refill')) return refill();
      if (method === 'POST' && url.endsWith('/contact-forms/1/feedback')) return feedback(body!);
      throw new Error(`Unexpected request: ${method} ${url}`);
    }),
  );
  return { calls, posts: () => calls.filter((call) => call.method === 'POST') };
}

const theForm = () => screen.getByRole('form', { name: 'Contact form' });
const sendButton = () => screen.getByRole('button', { name: 'Send message' });
const consent = () => screen.getByRole('checkbox', { name: /I agree that the shop keeps my message/ });

async function renderDemo(options: Parameters<typeof contactShop>[0] = {}) {
  const shop = contactShop(options);
  const rendered = renderWithApp(<ContactForm formId={1} />);
  await screen.findByRole('form', { name: 'Contact form' });
  await waitFor(() => expect(document.querySelector('.wpcf7.js')).not.toBeNull());
  return { ...shop, ...rendered };
}

function fillDemo({ name = 'Ada Lovelace', email = 'ada@example.com', subject = 'A question' } = {}) {
  setValue(screen.getByLabelText(/^Your name/), name);
  setValue(screen.getByLabelText(/^Your email/), email);
  setValue(screen.getByLabelText(/^Subject/), subject);
  setValue(screen.getByLabelText(/^Your message/), 'Do you ship to Norway?');
}

beforeEach(() => {
  resetNonce();
  // Refused fields are scrolled to; the test's window has nowhere to scroll.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the contact form', () => {
  it('is drawn from its definition: labels tied to inputs, required marks, the acceptance box, the hidden fields', async () => {
    await renderDemo();
    const name = screen.getByLabelText(/^Your name/) as HTMLInputElement;
    expect(name.id).toBe('wpcf7-f1-o1-your-name');
    expect(name.getAttribute('aria-required')).toBe('true');
    expect(name.autocomplete).toBe('name');
    expect(name.maxLength).toBe(400);
    expect(screen.getByLabelText(/^Your email/).getAttribute('type')).toBe('email');
    expect((screen.getByLabelText(/^Your message/) as HTMLTextAreaElement).maxLength).toBe(2000);
    expect(screen.getAllByTitle('required')).toHaveLength(4);
    expect(consent().getAttribute('name')).toBe('your-consent');
    const form = theForm() as HTMLFormElement;
    expect(form.getAttribute('action')).toBe('/wp-json/contact-form-7/v1/contact-forms/1/feedback');
    expect(form.enctype).toBe('multipart/form-data');
    expect(form.dataset.status).toBe('init');
    expect(form.className).toMatch(/^wpcf7-form init /);
    const hidden = Object.fromEntries([...form.querySelectorAll<HTMLInputElement>('input[type="hidden"]')].map((input) => [input.name, input.value]));
    expect(hidden).toMatchObject({ _wpcf7: '1', _wpcf7_version: '5.9.8', _wpcf7_locale: 'en_US', _wpcf7_unit_tag: 'wpcf7-f1-o1', _wpcf7_container_post: '0', _wpcf7_posted_data_hash: '' });
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('keeps the send button disabled until the acceptance box is ticked', async () => {
    const { posts } = await renderDemo();
    expect(sendButton()).toHaveProperty('disabled', true);
    fireEvent.click(consent());
    expect(sendButton()).toHaveProperty('disabled', false);
    fireEvent.click(consent());
    expect(sendButton()).toHaveProperty('disabled', true);
    fireEvent.click(sendButton());
    expect(posts()).toHaveLength(0);
  });

  it('waits for inverted boxes to be left unticked, and not for optional ones', async () => {
    await renderDemo({
      form: definition([
        { type: 'acceptance', name: 'no-calls', content: 'Do not call me', invert: true },
        { type: 'acceptance', name: 'news', content: 'Send me news', optional: true },
      ]),
      schema: { rules: [] },
    });
    expect(sendButton()).toHaveProperty('disabled', false);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Do not call me' }));
    expect(sendButton()).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Do not call me' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Send me news' }));
    expect(sendButton()).toHaveProperty('disabled', false);
  });

  it('checks a field when it changes, describing it by its error', async () => {
    await renderDemo();
    const email = screen.getByLabelText(/^Your email/);
    setValue(email, 'not-an-address');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe('wpcf7-f1-o1-ve-your-email');
    expect(document.getElementById('wpcf7-f1-o1-ve-your-email')?.textContent).toBe('Please enter an email address.');
    // Only the field that changed is checked.
    expect(screen.getByLabelText(/^Your name/).getAttribute('aria-invalid')).toBe('false');
    expect(theForm().dataset.status).toBe('init');
    setValue(email, 'ada@example.com');
    expect(email.getAttribute('aria-invalid')).toBe('false');
    expect(email.hasAttribute('aria-describedby')).toBe(false);
  });

  it('checks the whole form when sent, sends nothing it refuses, and takes the focus to the first field', async () => {
    const { posts } = await renderDemo();
    fireEvent.click(consent());
    setValue(screen.getByLabelText(/^Your email/), 'nope');
    fireEvent.click(sendButton());
    expect(theForm().dataset.status).toBe('invalid');
    expect(theForm().classList.contains('invalid')).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('One or more fields have an error. Please check and try again.');
    for (const [label, message] of [
      [/^Your name/, 'Please fill out this field.'],
      [/^Your email/, 'Please enter an email address.'],
      [/^Subject/, 'Please fill out this field.'],
    ] as const) {
      const control = screen.getByLabelText(label);
      expect(control.getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(control.getAttribute('aria-describedby')!)?.textContent).toBe(message);
    }
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText(/^Your name/)));
    expect(posts()).toHaveLength(0);
  });

  it('sends the form with the visitor’s own nonce, then shows the answer, resets the form and refills it', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { posts, calls } = await renderDemo({
      feedback: async () => {
        await answered;
        return jsonResponse(answer('mail_sent', { posted_data_hash: 'hash-1' }));
      },
    });
    fillDemo();
    fireEvent.click(consent());
    fireEvent.click(sendButton());
    await waitFor(() => expect(theForm().dataset.status).toBe('submitting'));
    expect(sendButton().getAttribute('aria-busy')).toBe('true');
    // A second press while it is on its way sends nothing more.
    fireEvent.click(sendButton());
    release();
    await waitFor(() => expect(theForm().dataset.status).toBe('sent'));
    expect(posts()).toHaveLength(1);
    const sent = posts()[0]!.body!;
    expect(sent.get('your-name')).toBe('Ada Lovelace');
    expect(sent.get('your-email')).toBe('ada@example.com');
    expect(sent.get('your-consent')).toBe('1');
    expect(sent.get('_wpnonce')).toBe('visitor-nonce');
    expect(sent.get('_wpcf7_unit_tag')).toBe('wpcf7-f1-o1');
    expect(screen.getByRole('status').textContent).toBe('Thank you for your message. It has been sent.');
    // Reset: the fields are empty again, the box unticked, the button waits for it again.
    expect((screen.getByLabelText(/^Your name/) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText(/^Your message/) as HTMLTextAreaElement).value).toBe('');
    expect(consent()).toHaveProperty('checked', false);
    await waitFor(() => expect(sendButton()).toHaveProperty('disabled', true));
    expect(calls.some((call) => call.url.endsWith('/contact-forms/1/refill'))).toBe(true);
    expect((document.querySelector('input[name="_wpcf7_posted_data_hash"]') as HTMLInputElement).value).toBe('hash-1');
  });

  it('sends the original’s events, the inputs in them without the hidden fields', async () => {
    await renderDemo();
    const heard: { name: string; status: string; inputs?: string[]; response?: string }[] = [];
    const listening = new AbortController();
    for (const name of ['wpcf7beforesubmit', 'wpcf7mailsent', 'wpcf7submit', 'wpcf7reset', 'wpcf7invalid']) {
      document.addEventListener(name, (event) => {
        const detail = (event as CustomEvent).detail;
        heard.push({ name, status: detail.status, inputs: detail.inputs.map((input: { name: string }) => input.name), response: detail.apiResponse?.status });
      }, { signal: listening.signal });
    }
    const statuses: string[] = [];
    document.addEventListener('wpcf7statuschanged', (event) => statuses.push((event as CustomEvent).detail.status), { signal: listening.signal });
    fireEvent.click(consent());
    fireEvent.click(sendButton());
    expect(heard).toEqual([{ name: 'wpcf7invalid', status: 'invalid', inputs: ['your-name', 'your-email', 'your-subject', 'your-message', 'your-consent'], response: undefined }]);
    fillDemo();
    fireEvent.click(sendButton());
    await waitFor(() => expect(heard.map((event) => event.name)).toContain('wpcf7reset'));
    expect(heard.slice(1).map(({ name, status, response }) => [name, status, response])).toEqual([
      ['wpcf7beforesubmit', 'submitting', undefined],
      ['wpcf7mailsent', 'sent', 'mail_sent'],
      ['wpcf7submit', 'sent', 'mail_sent'],
      ['wpcf7reset', 'resetting', undefined],
    ]);
    await waitFor(() => expect(statuses.at(-1)).toBe('sent'));
    expect(statuses).toEqual(expect.arrayContaining(['invalid', 'submitting', 'resetting', 'sent']));
    listening.abort();
  });

  it('marks the fields the server refuses, as it marks its own', async () => {
    await renderDemo({
      feedback: () =>
        jsonResponse(
          answer('validation_failed', {
            invalid_fields: [{ field: 'your-subject', message: 'This field has a too long input.', idref: null, error_id: 'wpcf7-f1-o1-ve-your-subject' }],
          }),
        ),
    });
    fillDemo();
    fireEvent.click(consent());
    fireEvent.click(sendButton());
    await waitFor(() => expect(theForm().dataset.status).toBe('invalid'));
    const subject = screen.getByLabelText(/^Subject/);
    expect(subject.getAttribute('aria-invalid')).toBe('true');
    expect(subject.getAttribute('aria-describedby')).toBe('wpcf7-f1-o1-ve-your-subject');
    expect(document.getElementById('wpcf7-f1-o1-ve-your-subject')?.textContent).toBe('This field has a too long input.');
    expect(screen.getByRole('status').textContent).toBe('One or more fields have an error. Please check and try again.');
    // Nothing was sent: the form keeps what was typed.
    expect((screen.getByLabelText(/^Your name/) as HTMLInputElement).value).toBe('Ada Lovelace');
    await waitFor(() => expect(document.activeElement).toBe(subject));
  });

  it.each([
    ['acceptance_missing', 'unaccepted'],
    ['spam', 'spam'],
    ['mail_failed', 'failed'],
    ['payment_required', 'payment-required'],
    ['held_for_review', 'custom-held-for-review'],
  ])('shows the answer %j as the status %j', async (status, shown) => {
    await renderDemo({ feedback: () => jsonResponse(answer(status)) });
    fillDemo();
    fireEvent.click(consent());
    fireEvent.click(sendButton());
    await waitFor(() => expect(theForm().dataset.status).toBe(shown));
    expect(theForm().classList.contains(shown)).toBe(true);
    expect(theForm().classList.contains('submitting')).toBe(false);
    expect(screen.getByRole('status').textContent).toBe(`Status ${status}.`);
  });

  it.each([
    ['no answer comes', () => Promise.reject(new TypeError('Failed to fetch')), 'You are probably offline.'],
    ['the answer is not JSON', () => new Response('<html>oops</html>', { status: 200 }), 'The response is not a valid JSON response.'],
    ['the server refuses it', () => jsonResponse({ code: 'wpcf7_payload_too_large', message: 'The submission is larger than this form takes.', data: { status: 413 } }, { status: 413 }), 'The submission is larger than this form takes.'],
  ])('is aborted when %s', async (_case, feedback, message) => {
    await renderDemo({ feedback });
    fillDemo();
    fireEvent.click(consent());
    fireEvent.click(sendButton());
    await waitFor(() => expect(theForm().dataset.status).toBe('aborted'));
    expect(screen.getByRole('status').textContent).toBe(message);
    expect((screen.getByLabelText(/^Your name/) as HTMLInputElement).value).toBe('Ada Lovelace');
  });

  it('goes back to init when the server answers nothing (204)', async () => {
    await renderDemo({ feedback: () => new Response(null, { status: 204 }) });
    fillDemo();
    fireEvent.click(consent());
    fireEvent.click(sendButton());
    await waitFor(() => expect(theForm().dataset.status).toBe('init'));
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('puts http:// before a bare address when a url field changes, and sends it so', async () => {
    const { posts } = await renderDemo({
      form: definition([{ type: 'url', name: 'website', label: 'Website' }]),
      schema: { rules: [{ rule: 'url', field: 'website', error: 'Please enter a URL.' }] },
    });
    const website = screen.getByLabelText('Website') as HTMLInputElement;
    setValue(website, 'shop.example/about');
    expect(website.value).toBe('http://shop.example/about');
    expect(website.getAttribute('aria-invalid')).toBe('false');
    setValue(website, 'no dot');
    expect(website.getAttribute('aria-invalid')).toBe('true');
    setValue(website, 'ferro.example');
    fireEvent.click(sendButton());
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]!.body!.get('website')).toBe('http://ferro.example');
  });

  it('draws groups of boxes as fieldsets: exclusive boxes untick one another, a free-text input opens with its choice', async () => {
    const { posts } = await renderDemo({
      form: definition([
        { type: 'checkbox', name: 'size', label: 'Size', options: ['S', 'M', 'L'], exclusive: true },
        { type: 'checkbox', name: 'colours', label: 'Colours', options: ['Red', 'Blue', 'Other'], free_text: true },
        { type: 'radio', name: 'contact-by', label: 'Answer by', options: ['Email', 'Phone'] },
      ]),
      schema: { rules: [{ rule: 'required', field: 'contact-by', error: 'Please fill out this field.' }] },
    });
    const sizes = screen.getByRole('group', { name: 'Size' });
    expect(sizes.tagName).toBe('FIELDSET');
    const box = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
    fireEvent.click(box('S'));
    fireEvent.click(box('L'));
    expect([box('S').checked, box('M').checked, box('L').checked]).toEqual([false, false, true]);
    fireEvent.click(box('L'));
    expect([box('S').checked, box('M').checked, box('L').checked]).toEqual([false, false, false]);
    // A group without `exclusive` keeps several.
    fireEvent.click(box('Red'));
    fireEvent.click(box('Blue'));
    expect([box('Red').checked, box('Blue').checked]).toEqual([true, true]);

    const words = screen.getByRole('textbox', { name: 'Colours: Other, in your own words' }) as HTMLInputElement;
    expect(words.name).toBe('_wpcf7_free_text_colours');
    expect(words.disabled).toBe(true);
    fireEvent.click(box('Other'));
    expect(words.disabled).toBe(false);
    setValue(words, 'Ochre');
    fireEvent.click(box('Red'));
    fireEvent.click(box('M'));

    // Radio buttons: a radio group whose first option is chosen unless the definition says otherwise.
    const answerBy = screen.getByRole('radiogroup', { name: 'Answer by' });
    expect(answerBy.tagName).toBe('FIELDSET');
    expect(screen.getByRole('radio', { name: 'Email' })).toHaveProperty('checked', true);

    fireEvent.click(sendButton());
    await waitFor(() => expect(posts()).toHaveLength(1));
    const sent = posts()[0]!.body!;
    expect(sent.getAll('size')).toEqual(['M']);
    expect(sent.getAll('colours[]')).toEqual(['Blue', 'Other']);
    expect(sent.get('_wpcf7_free_text_colours')).toBe('Ochre');
    expect(sent.get('contact-by')).toBe('Email');

    fireEvent.click(box('Other'));
    expect(words.disabled).toBe(true);
  });

  it('counts characters against a field’s limits and flags too long and too short', async () => {
    await renderDemo({
      form: definition([{ type: 'textarea', name: 'story', label: 'Story', minlength: 5, maxlength: 12 }]),
      schema: { rules: [] },
    });
    const story = screen.getByLabelText('Story') as HTMLTextAreaElement;
    const counter = document.getElementById('wpcf7-f1-o1-story-count')!;
    expect(story.getAttribute('aria-describedby')).toBe('wpcf7-f1-o1-story-count');
    expect(counter.textContent).toBe('0 of 12 characters, at least 5');
    fireEvent.input(story, { target: { value: 'Hi' } });
    expect(counter.textContent).toBe('2 of 12 characters, at least 5');
    expect(counter.classList.contains('too-short')).toBe(true);
    fireEvent.input(story, { target: { value: 'Hello there!!' } });
    expect(counter.classList.contains('too-long')).toBe(true);
    expect(counter.classList.contains('too-short')).toBe(false);
  });

  it('asks the quiz’s question as its label and sends its token; the refill brings a new one', async () => {
    const { posts } = await renderDemo({
      form: definition([{ type: 'quiz', name: 'quiz' }], { quiz: { quiz: ['What is 2 + 2?', 'token-1'] } }),
      schema: { rules: [] },
      feedback: () => jsonResponse(answer('mail_sent', { quiz: { quiz: ['What is 3 + 4?', 'token-2'] } })),
      refill: () => jsonResponse({ quiz: { quiz: ['What is 5 + 5?', 'token-3'] } }),
    });
    setValue(screen.getByLabelText(/What is 2 \+ 2\?/), '4');
    fireEvent.click(sendButton());
    await waitFor(() => expect(screen.getByLabelText(/What is 5 \+ 5\?/)).toBeTruthy());
    const sent = posts()[0]!.body!;
    expect(sent.get('quiz')).toBe('4');
    expect(sent.get('_wpcf7_quiz_answer_quiz')).toBe('token-1');
    expect((document.querySelector('input[name="_wpcf7_quiz_answer_quiz"]') as HTMLInputElement).value).toBe('token-3');
    expect(theForm().dataset.status).toBe('sent');
  });

  it('hides the honeypot from people and sends it empty', async () => {
    const { posts } = await renderDemo({ form: definition([{ type: 'text', name: 'your-name', label: 'Your name' }], { honeypot: 'website-url' }), schema: { rules: [] } });
    const trap = document.querySelector('input[name="website-url"]') as HTMLInputElement;
    expect(trap.tabIndex).toBe(-1);
    expect(trap.autocomplete).toBe('off');
    expect(trap.closest('[aria-hidden="true"]')).not.toBeNull();
    fireEvent.click(sendButton());
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]!.body!.get('website-url')).toBe('');
  });

  it('takes file inputs with the schema’s types', async () => {
    await renderDemo({
      form: definition([{ type: 'file', name: 'photo', label: 'A photo', filetypes: ['jpg', 'png'], limit: 2_000_000 }]),
      schema: { rules: [{ rule: 'file', field: 'photo', error: 'You are not allowed to upload files of this type.', accept: ['.jpg', '.png'] }] },
    });
    const input = screen.getByLabelText('A photo') as HTMLInputElement;
    expect(input.type).toBe('file');
    expect(input.accept).toBe('.jpg,.png');
    expect(screen.getByText('Up to 1.9 MB.')).toBeTruthy();
  });

  it('says a form placed inside another form is in the wrong place', async () => {
    contactShop();
    renderWithApp(
      <form aria-label="Outer">
        <ContactFormView definition={definition()} schema={DEMO_SCHEMA} />
      </form>,
    );
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toBe('Error: This contact form is placed in the wrong place.');
    expect(notice.classList.contains('wpcf7-form-in-wrong-place')).toBe(true);
    expect(screen.queryByRole('form', { name: 'Contact form' })).toBeNull();
  });

  it('stays a plain form, and says why in the console, in a browser without what its scripts need', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal('FormData', undefined);
    renderWithApp(<ContactFormView definition={definition()} schema={DEMO_SCHEMA} />);
    await waitFor(() => expect(errors).toHaveBeenCalledWith('Your browser does not support window.FormData().'));
    expect(document.querySelector('.wpcf7.no-js')).not.toBeNull();
    // The button does not wait for the box, and sending is left to the browser.
    expect(sendButton()).toHaveProperty('disabled', false);
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    theForm().dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(false);
  });

  it('says so, in the console too, when the form’s settings are missing', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    contactShop({ form: { id: 1, title: 'Broken' } as ContactFormDefinition });
    renderWithApp(<ContactForm formId={1} />);
    expect((await screen.findByRole('alert')).textContent).toBe('This contact form could not be loaded. Please try again later.');
    expect(errors).toHaveBeenCalledWith('The contact form’s settings are missing.');
    expect(screen.queryByRole('form', { name: 'Contact form' })).toBeNull();
  });

  it('says so when the form cannot be found', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input).includes('/ferroshop/v1/contact-forms/')
          ? jsonResponse({ code: 'wpcf7_not_found', message: 'The requested contact form was not found.', data: { status: 404 } }, { status: 404 })
          : jsonResponse({ rules: [] }),
      ),
    );
    renderWithApp(<ContactForm formId={1} />);
    expect((await screen.findByRole('alert')).textContent).toBe('The requested contact form was not found.');
  });
});

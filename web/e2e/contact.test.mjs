// The contact page in the browser, against the demo shop's form 1 (the original's
// "Contact form 1" with a consent box): rendered by the server and taken over with
// the data it came with, reached from the footer; fields checked as they change and
// the whole form when sent; the send button waiting for the consent box; a field the
// server refuses marked as the form marks its own; a message sent, thanked for, the
// form reset and the message kept for staff (the staff API's submissions); no answer
// ("You are probably offline.") and an answer that is not JSON; a form placed inside
// another form; the form without scripts; axe-core and screenshots at each width;
// and /contact as one of the server's pages (its status, head and styles).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventually, expectAttribute, expectClearOfHeader, expectDisabled, expectNoAxeViolations, expectText, expectURL, expectValue, waitFor } from './support/checks.mjs';
import { perViewport, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);

const FORM_API = '/wp-json/contact-form-7/v1/contact-forms/1';
const FEEDBACK = `**${FORM_API}/feedback`;
const SENT = 'Thank you for your message. It has been sent.';

const contactForm = (page) => page.getByRole('form', { name: 'Contact form' });
const sendButton = (page) => contactForm(page).getByRole('button', { name: 'Send message' });
const consent = (page) => contactForm(page).getByRole('checkbox', { name: /I agree that the shop keeps my message/ });
const field = (page, label) => contactForm(page).getByLabel(label);
/** The form's answer, in its live region. */
const answer = (page) => contactForm(page).getByRole('status');

/** The form's status, as it has it on itself. */
const expectStatus = (page, status) => expectAttribute(contactForm(page), 'data-status', status);

/** Opens /contact once the form's part of the page runs (the page is taken over in parts). */
async function openContactPage(page) {
  const response = await page.goto('/contact');
  await page.locator('.wpcf7.js').waitFor();
  return response;
}

async function fillIn(page, { name = 'Ada Lovelace', email = 'ada@example.test', subject, message = 'Do you ship to Norway?' }) {
  await field(page, /^Your name/).fill(name);
  await field(page, /^Your email/).fill(email);
  await field(page, /^Subject/).fill(subject);
  await field(page, /^Your message/).fill(message);
}

/** The text of the error the control is described by, once it is marked invalid. */
async function errorOf(control) {
  await expectAttribute(control, 'aria-invalid', 'true');
  const id = await control.getAttribute('aria-describedby');
  return control.page().locator(`[id="${id}"]`).textContent();
}

/** axe-core over the page from its top (scrolled, the sticky header covers the breadcrumb, a state no check should judge). */
async function expectAccessible(page, label) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectNoAxeViolations(page, label);
}

let staffAuth = null;

/** The staff API's credentials, made once for the file. */
function staffKey() {
  if (staffAuth) return staffAuth;
  const out = shop.command('api-keys', 'create', '--description', 'contact form test', '--permissions', 'read_write');
  const key = /ck_[0-9a-f]+/.exec(out)?.[0];
  const secret = /cs_[0-9a-f]+/.exec(out)?.[0];
  assert.ok(key && secret, out);
  staffAuth = `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
  return staffAuth;
}

async function submissions() {
  const res = await fetch(`${shop.baseURL}${FORM_API}/submissions`, { headers: { Authorization: staffKey() } });
  assert.equal(res.status, 200, await res.clone().text());
  return res.json();
}

perViewport((viewport) => {
  shop.test('the server renders the contact page; the browser takes it over with the data it came with', viewport, async ({ page, shot }) => {
    // Reached from the footer.
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact us' }).click();
    await expectURL(page, (url) => url.pathname.replace(/\/$/, '') === '/contact', 'be /contact');
    await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
    await waitFor(async () => assert.equal(await page.title(), 'Contact us – Ferroshop'), { message: 'the tab title' });

    // The server's HTML holds the whole form, with this visitor's nonce in it; the
    // browser takes those very elements over, asking for neither the form nor its
    // schema again, with nothing said in the console.
    const calls = [];
    page.on('request', (request) => {
      if (request.url().includes('/contact-forms/')) calls.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    const said = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') said.push(`${message.type()}: ${message.text()}`);
    });
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        window.serverForm = document.querySelector('#root form.wpcf7-form');
        window.serverName = document.querySelector('#root input[name="your-name"]');
      });
    });
    const response = await openContactPage(page);
    assert.equal(response.status(), 200);
    const html = await response.text();
    assert.match(html, /<form action="\/wp-json\/contact-form-7\/v1\/contact-forms\/1\/feedback" method="post" enctype="multipart\/form-data" class="wpcf7-form init [^"]*" data-status="init" aria-label="Contact form"/);
    for (const part of ['name="your-name"', 'name="your-email"', 'name="your-subject"', 'name="your-message"', 'name="your-consent"', 'name="_wpcf7_unit_tag" value="wpcf7-f1-o1"', 'I agree that the shop keeps my message to answer it.']) {
      assert.ok(html.includes(part), `the server renders ${part}`);
    }
    const settings = JSON.parse(/<script id="ferroshop-settings" type="application\/json">([^<]*)<\/script>/.exec(html)[1]);
    assert.ok(html.includes(`name="_wpnonce" value="${settings.store_api_nonce}"`), 'the form carries the visitor’s own nonce');
    assert.ok(
      await page.evaluate(() => window.serverForm !== null && window.serverForm === document.querySelector('#root form.wpcf7-form') && window.serverName === document.querySelector('#root input[name="your-name"]')),
      'the form is still the element the server sent',
    );
    await page.waitForLoadState('networkidle');
    assert.deepEqual(calls, [], 'the browser asks for neither the form nor its schema again');
    assert.deepEqual(said, [], 'the console stayed quiet');

    // Labels tied to their inputs, the required ones marked, the consent box, the button waiting for it.
    await expectAttribute(field(page, /^Your name/), 'aria-required', 'true');
    await expectAttribute(field(page, /^Your email/), 'type', 'email');
    assert.equal(await contactForm(page).getByTitle('required').count(), 4);
    await expectDisabled(sendButton(page));
    await expectStatus(page, 'init');
    await expectNoAxeViolations(page, `the contact page at ${viewport.width} px`);
    await shot('contact-page');
  });

  shop.test('fields are checked as they change and when sent; the button waits for the consent box', viewport, async ({ page, shot }) => {
    const posts = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`${FORM_API}/feedback`)) posts.push(request);
    });
    await openContactPage(page);
    await expectDisabled(sendButton(page));
    await consent(page).check();
    await expectDisabled(sendButton(page), false);
    await consent(page).uncheck();
    await expectDisabled(sendButton(page));
    await consent(page).check();

    // A field is checked when it changes (on leaving it), and only that field.
    const email = field(page, /^Your email/);
    await email.fill('ada.example');
    await email.press('Tab');
    assert.equal(await errorOf(email), 'Please enter an email address.');
    await expectAttribute(email, 'aria-describedby', 'wpcf7-f1-o1-ve-your-email');
    await expectAttribute(field(page, /^Your name/), 'aria-invalid', 'false');
    await email.fill('ada@example.test');
    await email.press('Tab');
    await expectAttribute(email, 'aria-invalid', 'false');

    // Sent with fields missing: refused before anything goes out, the first one focused.
    await sendButton(page).click();
    await expectStatus(page, 'invalid');
    await expectText(answer(page), 'One or more fields have an error. Please check and try again.');
    assert.equal(await errorOf(field(page, /^Your name/)), 'Please fill out this field.');
    assert.equal(await errorOf(field(page, /^Subject/)), 'Please fill out this field.');
    await waitFor(() => field(page, /^Your name/).evaluate((input) => input === document.activeElement), { message: 'the focus on the first field refused' });
    await expectClearOfHeader(page, field(page, /^Your name/));
    assert.equal(posts.length, 0, 'nothing was sent');
    await expectAccessible(page, `the contact form with errors at ${viewport.width} px`);
    await shot('contact-errors');
  });

  shop.test('a field the server refuses is marked as the form marks its own; so is a consent the server finds missing', viewport, async ({ page }) => {
    await openContactPage(page);
    await fillIn(page, { subject: `Refused (${viewport.width})` });
    await consent(page).check();
    // The address is spoilt on its way, after the form's own check: the server's verdict shows.
    await page.route(FEEDBACK, async (route) => {
      const body = route.request().postDataBuffer().toString('latin1').replace('ada@example.test', 'ada@example..test');
      await route.continue({ postData: Buffer.from(body, 'latin1') });
    });
    await sendButton(page).click();
    await expectStatus(page, 'invalid');
    await expectText(answer(page), 'One or more fields have an error. Please check and try again.');
    const email = field(page, /^Your email/);
    assert.equal(await errorOf(email), 'Please enter an email address.');
    await expectAttribute(email, 'aria-describedby', 'wpcf7-f1-o1-ve-your-email');
    await expectValue(field(page, /^Your name/), 'Ada Lovelace');
    await page.unroute(FEEDBACK);

    // The box unticked behind the form's back (no event): the server answers acceptance_missing.
    await consent(page).evaluate((box) => {
      box.checked = false;
    });
    await sendButton(page).click();
    await expectStatus(page, 'unaccepted');
    await expectText(answer(page), 'You must accept the terms and conditions before sending your message.');
    await expectAttribute(email, 'aria-invalid', 'false');
  });

  shop.test('a message sent is thanked for, the form reset, and the message kept for staff', viewport, async ({ page, shot }) => {
    const subject = `Shipping to Norway (${viewport.width} px, ${Date.now()})`;
    const refills = [];
    page.on('request', (request) => {
      if (request.url().endsWith(`${FORM_API}/refill`)) refills.push(request.url());
    });
    await openContactPage(page);
    await fillIn(page, { subject });
    await consent(page).check();
    await sendButton(page).click();
    await expectText(answer(page), SENT);
    await expectStatus(page, 'sent');
    await expectAttribute(contactForm(page), 'class', /(^| )sent( |$)/);
    // Reset: every field empty again, the box unticked, the button waiting for it.
    for (const label of [/^Your name/, /^Your email/, /^Subject/, /^Your message/]) await expectValue(field(page, label), '');
    assert.equal(await consent(page).isChecked(), false);
    await expectDisabled(sendButton(page));
    // The button waits again, so the message has the focus, not the page.
    assert.equal(await answer(page).evaluate((element) => element === document.activeElement), true, 'the message has the focus');
    await eventually(() => refills, (list) => list.length === 1, 'the refill call');
    await expectAccessible(page, `the contact form once sent at ${viewport.width} px`);
    await shot('contact-sent');

    // Kept for staff, its mail queued: the staff API lists it as mail_sent.
    const kept = await eventually(submissions, (list) => list.some((s) => JSON.stringify(s.inputs).includes(subject)), 'the submission kept');
    const mine = kept.find((s) => JSON.stringify(s.inputs).includes(subject));
    assert.equal(mine.status, 'mail_sent');
    const inputs = Object.fromEntries(mine.inputs);
    assert.deepEqual(inputs['your-name'], ['Ada Lovelace']);
    assert.deepEqual(inputs['your-email'], ['ada@example.test']);
    assert.deepEqual(inputs['your-message'], ['Do you ship to Norway?']);
    assert.match(inputs['your-consent'][0], /^Consented/);
  });

  shop.test('no answer says the shopper is probably offline; an answer that is not JSON says so', viewport, async ({ page, shot }) => {
    await openContactPage(page);
    await fillIn(page, { subject: 'Offline' });
    await consent(page).check();

    await page.route(FEEDBACK, (route) => route.abort('internetdisconnected'));
    await sendButton(page).click();
    await expectStatus(page, 'aborted');
    await expectText(answer(page), 'You are probably offline.');
    await expectValue(field(page, /^Subject/), 'Offline');
    await shot('contact-offline');
    await page.unroute(FEEDBACK);

    await page.route(FEEDBACK, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><p>Maintenance</p>' }));
    await sendButton(page).click();
    await expectText(answer(page), 'The response is not a valid JSON response.');
    await expectStatus(page, 'aborted');
    await expectValue(field(page, /^Your name/), 'Ada Lovelace');
    await expectAccessible(page, `the contact form aborted at ${viewport.width} px`);
  });

  shop.test(
    'without scripts the form posts as a plain multipart form, with the visitor’s nonce, and the message is kept',
    viewport,
    async ({ page }) => {
      const subject = `Without scripts (${viewport.width} px, ${Date.now()})`;
      await page.goto('/contact');
      const form = page.locator('form.wpcf7-form');
      await form.locator('input[name="your-name"]').fill('Grace Hopper');
      await form.locator('input[name="your-email"]').fill('grace@example.test');
      await form.locator('input[name="your-subject"]').fill(subject);
      await form.locator('input[name="your-consent"]').check();
      // The button waits for the consent box only once scripts run; here the server judges it.
      const [response] = await Promise.all([page.waitForResponse((res) => res.url().endsWith(`${FORM_API}/feedback`)), form.getByRole('button', { name: 'Send message' }).click()]);
      assert.equal(response.status(), 200);
      assert.equal((await response.json()).status, 'mail_sent');
      const kept = await eventually(submissions, (list) => list.some((s) => JSON.stringify(s.inputs).includes(subject)), 'the submission kept');
      assert.equal(kept.find((s) => JSON.stringify(s.inputs).includes(subject)).status, 'mail_sent');
    },
    { javaScriptEnabled: false },
  );

  shop.test('a contact form placed inside another form says it is in the wrong place', viewport, async ({ page }) => {
    // The page's app is put inside a form of the page before the app takes it over.
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const root = document.getElementById('root');
        const outer = document.createElement('form');
        outer.setAttribute('aria-label', 'A form around the page');
        root.before(outer);
        outer.append(root);
        document.documentElement.dataset.wrapped = document.documentElement.dataset.app === 'ready' ? 'too late' : 'in time';
      });
    });
    await page.goto('/contact');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.wrapped), 'in time');
    const notice = page.locator('.wpcf7-form-in-wrong-place');
    await expectText(notice, 'Error: This contact form is placed in the wrong place.');
    await expectAttribute(notice, 'role', 'alert');
    assert.equal(await page.getByRole('form', { name: 'Contact form' }).count(), 0);
  });
});

test('the server answers /contact as a page of its own: its status, head and styles', async () => {
  const res = await fetch(`${shop.baseURL}/contact`);
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.ok(html.includes('<title>Contact us – Ferroshop</title>'), 'the page’s own title');
  assert.ok(html.includes(`<link rel="canonical" href="${shop.baseURL}/contact/"`), 'its canonical address');
  assert.match(html, /\/assets\/contact-[\w-]+\.css/, 'the styles of its form come with it');
});

// The newsletter in the browser, in a shop that sends its mail to an SMTP sink
// (scripts/smtp-sink.py): the footer's sign-up form, rendered by the server with the
// visitor's own nonce and taken over by the app; the consent box asked for, an address
// the server refuses kept for the shopper to put right, no answer; the server's reply
// taking the form's place; the confirmation mail's link opened, its button pressed and
// the subscriber confirmed in the staff API; the checkout's box signing the shopper up
// as the order is placed; the form without scripts. axe-core and screenshots at each
// width. The shop takes ten sign-ups an hour from one client: this file sends eight.

import assert from 'node:assert/strict';
import { addToCartVia } from './support/api.mjs';
import { acceptTerms, customer, fillAddress, openCheckout, placeOrder, reviewSettled, settingsOf } from './support/checkout.mjs';
import { eventually, expectAttribute, expectCount, expectNoAxeViolations, expectText, expectValue, waitFor } from './support/checks.mjs';
import { perViewport, SCREENSHOT_DIR, useShop } from './support/shop.mjs';
import { plainTextOf, useSmtpSink } from './support/smtp-sink.mjs';

const sink = await useSmtpSink();
const shop = useShop(import.meta.url, { env: sink.env });

const ACTION = '/wp-admin/admin-ajax.php?action=tnp&na=sa';
const SIGNED_UP = 'Thank you! Please check your inbox: we have sent you an e-mail to confirm your subscription.';
const INVALID_EMAIL = 'Please enter a valid e-mail address.';
const NO_CONSENT = 'Please accept the privacy policy to subscribe.';
const CONSENT = 'I agree to receive the newsletter and accept the privacy policy.';

const footer = (page) => page.getByRole('contentinfo');
const signUpForm = (page) => footer(page).getByRole('form', { name: 'Newsletter sign-up' });
const emailField = (page) => signUpForm(page).getByLabel('Your e-mail address');
const consentBox = (page) => signUpForm(page).getByRole('checkbox', { name: CONSENT });
const subscribeButton = (page) => signUpForm(page).getByRole('button', { name: 'Subscribe' });
const formMessage = (page) => signUpForm(page).locator('[aria-live="polite"]');

/** A fresh address per test and width: the shop takes three sign-ups an hour per address. */
const addressFor = (tag, viewport) => `${tag}.${viewport.width}.${Date.now().toString(36)}@example.test`;

/** Records the sign-ups the page sends. */
function recordSignUps(page) {
  const sent = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith(ACTION)) sent.push(request);
  });
  return sent;
}

/** The sticky header and the phone's footer bar would lie over a part of the page captured alone. */
const NO_OVERLAYS = 'header, .storefront-handheld-footer-bar { visibility: hidden !important; }';

/** A part of the page alone (the footer, the checkout's payment part), for a closer look than the whole page gives. */
async function partShot(locator, label, viewport) {
  await locator.screenshot({ path: `${SCREENSHOT_DIR}/${label}-${viewport.width}px.png`, animations: 'disabled', style: NO_OVERLAYS });
}

/** axe-core over the page from its top, the footer in view too. */
async function expectAccessible(page, label) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectNoAxeViolations(page, label);
}

let staffAuth = null;

/** The staff API's credentials, made once for the file. */
function staffKey() {
  if (staffAuth) return staffAuth;
  const out = shop.command('api-keys', 'create', '--description', 'newsletter test', '--permissions', 'read');
  const key = /ck_[0-9a-f]+/.exec(out)?.[0];
  const secret = /cs_[0-9a-f]+/.exec(out)?.[0];
  assert.ok(key && secret, out);
  staffAuth = `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
  return staffAuth;
}

/** The subscribers with `status`, from the staff API. */
async function subscribers(status) {
  const res = await fetch(`${shop.baseURL}/wp-json/wc/v3/newsletter/subscribers?status=${status}&per_page=1000`, { headers: { Authorization: staffKey() } });
  assert.equal(res.status, 200, await res.clone().text());
  return res.json();
}

/** Waits for the subscriber at `email` to stand at `status`; returns them. */
async function expectSubscriber(email, status) {
  const list = await eventually(() => subscribers(status), (found) => found.some((s) => s.email === email), `${email} among the ${status} subscribers`);
  return list.find((s) => s.email === email);
}

/** The confirmation mail to `email` (the one with the confirmation link), once the sink has it. */
function confirmationMailTo(email) {
  return sink.waitForMail(
    (mail) => (mail.headers.to ?? '').includes(email) && mail.parts.some((part) => part.type === 'text/plain' && part.text.includes('/?na=c&nk=')),
    `the confirmation mail to ${email}`,
  );
}

perViewport((viewport) => {
  shop.test('the footer’s form asks for consent, keeps a refused address, and gives way to the reply; the mail’s link confirms', viewport, async ({ page, context, shot }) => {
    const signUps = recordSignUps(page);
    const response = await page.goto('/');

    // The server renders the plain form, with this visitor's own nonce in it.
    const html = await response.text();
    assert.match(html, /<form method="post" action="\/wp-admin\/admin-ajax\.php\?action=tnp&(amp;)?na=sa" enctype="multipart\/form-data"/);
    const settings = await settingsOf(page);
    assert.ok(html.includes(`name="_wpnonce" value="${settings.store_api_nonce}"`), 'the form carries the visitor’s own nonce');
    assert.ok(html.includes('name="nr" value="footer"'), 'the form says where it is');

    await footer(page).getByRole('heading', { name: 'Newsletter' }).waitFor();
    await expectAttribute(emailField(page), 'type', 'email');
    await expectAttribute(emailField(page), 'autocomplete', 'email');
    await expectAccessible(page, `the home page with the newsletter form at ${viewport.width} px`);
    await partShot(footer(page), 'newsletter-footer', viewport);

    // Without the consent box nothing is sent: the box says why and takes the focus.
    const email = addressFor('news', viewport);
    await emailField(page).fill(email);
    await subscribeButton(page).click();
    await expectText(formMessage(page), NO_CONSENT);
    await expectAttribute(consentBox(page), 'aria-invalid', 'true');
    await waitFor(() => consentBox(page).evaluate((box) => box === document.activeElement), { message: 'the focus on the consent box' });
    assert.equal(signUps.length, 0, 'nothing was sent');

    // An address the server refuses: its message under the form, the address kept to put right.
    await consentBox(page).check();
    await emailField(page).fill('ada@example');
    await subscribeButton(page).click();
    await expectText(formMessage(page), INVALID_EMAIL);
    await expectAttribute(emailField(page), 'aria-invalid', 'true');
    await expectValue(emailField(page), 'ada@example');
    assert.equal(signUps.length, 1);
    await expectAccessible(page, `the newsletter form with a refused address at ${viewport.width} px`);
    await partShot(footer(page), 'newsletter-refused', viewport);

    // No answer at all.
    await page.route(`**${ACTION}`, (route) => route.abort('internetdisconnected'));
    await emailField(page).fill(email);
    await subscribeButton(page).click();
    await expectText(formMessage(page), 'You are probably offline.');
    await expectValue(emailField(page), email);
    await page.unroute(`**${ACTION}`);

    // Signed up: the reply's text takes the form's place and the focus.
    await subscribeButton(page).click();
    const reply = footer(page).getByTestId('newsletter-reply');
    await expectText(reply, SIGNED_UP);
    await expectCount(signUpForm(page), 0);
    await waitFor(() => reply.evaluate((element) => element === document.activeElement), { message: 'the focus on the reply' });
    const sent = signUps.at(-1);
    assert.match(sent.headers()['content-type'], /^multipart\/form-data; boundary=/);
    const body = sent.postDataBuffer().toString('utf8');
    for (const [name, value] of [['ne', email], ['ny', '1'], ['nr', 'footer'], ['_wpnonce', settings.store_api_nonce]]) {
      assert.match(body, new RegExp(`name="${name}"\\r\\n\\r\\n${value.replace(/[.+]/g, '\\$&')}\\r\\n`), `the sign-up sends ${name}`);
    }
    await expectAccessible(page, `the newsletter reply at ${viewport.width} px`);
    await partShot(footer(page), 'newsletter-signed-up', viewport);
    await shot('newsletter-home');
    const pending = await expectSubscriber(email, 'pending');
    assert.equal(pending.source, 'footer');

    // The mail's link, quoted-printable and all, opens the shop's page; its button confirms.
    const mail = await confirmationMailTo(email);
    const text = plainTextOf(mail);
    const link = /https?:\/\/[^\s<>"]+?\/\?na=c&nk=[\w-]+/.exec(text)?.[0];
    assert.ok(link, `a confirmation link in the mail:\n${text}`);
    assert.equal(new URL(link).origin, shop.baseURL, 'the link points to the shop');
    const mailPage = await context.newPage();
    await mailPage.goto(link);
    await mailPage.getByRole('heading', { level: 1, name: 'Confirm your subscription' }).waitFor();
    // Opening the link changes nothing: a mail scanner that follows it confirms no one.
    assert.ok(!(await subscribers('confirmed')).some((s) => s.email === email), 'not confirmed by opening the link');
    await shot('newsletter-confirm-page', mailPage);
    await mailPage.getByRole('button', { name: 'Confirm my subscription' }).click();
    await mailPage.getByRole('heading', { level: 1, name: 'Subscription confirmed' }).waitFor();
    await shot('newsletter-confirmed', mailPage);
    const confirmed = await expectSubscriber(email, 'confirmed');
    assert.ok(confirmed.confirmed_at_gmt, 'the confirmation is dated');
  });

  shop.test('the checkout’s newsletter box signs the shopper up as the order is placed', viewport, async ({ page }) => {
    const [product] = (await shop.api.allProducts()).filter((p) => p.type === 'simple' && p.is_purchasable && p.is_in_stock && p.add_to_cart.minimum <= 1);
    await addToCartVia(page, product.id, 1);
    const signUps = recordSignUps(page);
    await openCheckout(page);
    const who = customer(`newsletter-${viewport.width}`);
    await fillAddress(page, 'billing', who);
    await acceptTerms(page);
    const box = page.getByRole('checkbox', { name: 'Sign me up for the newsletter' });
    assert.equal(await box.isChecked(), false, 'the box starts unticked');
    await box.check();
    await reviewSettled(page);
    await expectNoAxeViolations(page, `the checkout with the newsletter box at ${viewport.width} px`);
    await partShot(page.locator('#payment'), 'newsletter-checkout-box', viewport);

    await placeOrder(page);
    await page.getByText('Thank you. Your order has been received.').waitFor();
    const subscriber = await expectSubscriber(who.email, 'pending');
    assert.equal(subscriber.source, 'checkout');
    assert.equal(subscriber.name, who.first_name);
    assert.equal(signUps.length, 1, 'one sign-up, after the order');
    await confirmationMailTo(who.email);
  });

  shop.test(
    'without scripts the footer form posts as the plugin’s plain form, with the visitor’s nonce',
    viewport,
    async ({ page }) => {
      const email = addressFor('plain', viewport);
      await page.goto('/');
      const form = page.locator('footer form[action*="na=sa"]');
      await form.locator('input[name="ne"]').fill(email);
      await form.locator('input[name="ny"]').check();
      const [response] = await Promise.all([page.waitForResponse((res) => res.url().endsWith(ACTION)), form.getByRole('button', { name: 'Subscribe' }).click()]);
      assert.equal(response.status(), 200);
      await expectText(page.locator('body'), SIGNED_UP);
      assert.equal((await expectSubscriber(email, 'pending')).source, 'footer');
    },
    { javaScriptEnabled: false },
  );
});

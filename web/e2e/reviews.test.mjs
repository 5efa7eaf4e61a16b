// Product reviews in the browser: the tab opened by the summary's "customer reviews"
// link, by #comment-ID and by a page of reviews (?cpage=2, rendered by the server),
// the figures, verified owners and the shop's replies; the form's rating alert when
// no star is chosen, stars by keyboard, a guest's review waiting for staff and shown
// once approved (staff API), a customer's reply nested under a review, and the form
// without scripts.

import assert from 'node:assert/strict';
import { decodeEntities } from './support/api.mjs';
import { registerCustomer } from './support/checkout.mjs';
import { eventually, expectAttribute, expectCount, expectNoAxeViolations, expectTextContaining, expectURL } from './support/checks.mjs';
import { perViewport, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);
const PASSWORD = 'Correct-Horse-42';
const REST = '/wp-json/ferroshop/v1';

/** A product whose reviews run to more than one page, with a reply and a verified owner among them. */
async function reviewedProduct() {
  const all = await shop.api.allProducts();
  const many = all.filter((p) => p.review_count > 10).sort((a, b) => b.review_count - a.review_count);
  assert.ok(many.length > 0, 'the demo shop has a product with more than one page of reviews');
  return { ...many[0], name: decodeEntities(many[0].name) };
}

async function reviewsOf(product, page = 1) {
  const res = await fetch(`${shop.baseURL}${REST}/products/${product.id}/reviews${page > 1 ? `?cpage=${page}` : ''}`);
  return res.json();
}

function staffKey() {
  const out = shop.command('api-keys', 'create', '--description', 'reviews test', '--permissions', 'read_write');
  const key = /ck_[0-9a-f]+/.exec(out)?.[0];
  const secret = /cs_[0-9a-f]+/.exec(out)?.[0];
  assert.ok(key && secret, out);
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}

const reviewsTab = (page) => page.getByRole('tab', { name: /^Reviews \(/ });

perViewport((viewport) => {
  shop.test('the reviews tab: the summary’s link, a review’s address, a page of reviews, the figures', viewport, async ({ page, shot }) => {
    const product = await reviewedProduct();
    const first = await reviewsOf(product);
    await page.goto(`/product/${product.slug}/`);
    await expectAttribute(reviewsTab(page), 'aria-selected', 'false');
    await page.getByRole('link', { name: `(${product.review_count} customer reviews)` }).click();
    await expectAttribute(reviewsTab(page), 'aria-selected', 'true');
    const panel = page.getByRole('tabpanel', { name: /^Reviews/ });
    await expectTextContaining(panel, `${product.review_count} reviews for “${product.name}”`);
    await expectCount(panel.locator('ol.commentlist > li'), first.reviews.length);
    const verified = first.reviews.find((r) => r.verified);
    if (verified) await expectTextContaining(panel.locator(`#comment-${verified.id}`), '(verified owner)');
    const withReply = first.reviews.find((r) => r.replies.length > 0);
    if (withReply) await expectCount(panel.locator(`#li-comment-${withReply.id} ol.children #comment-${withReply.replies[0].id}`), 1);
    await expectNoAxeViolations(page, `the reviews tab at ${viewport.width} px`);
    await shot('reviews-tab');

    // A review's own address opens the tab at it.
    const target = first.reviews[first.reviews.length - 1];
    await page.goto(`/product/${product.slug}/#comment-${target.id}`);
    await expectAttribute(reviewsTab(page), 'aria-selected', 'true');
    await eventually(() => page.locator(`#comment-${target.id}`).evaluate((node) => {
      const rect = node.getBoundingClientRect();
      return rect.top >= 0 && rect.top < window.innerHeight;
    }), (inView) => inView === true, 'the review to be in view');

    // The second page of reviews, as the server renders it: the tab open, other reviews.
    const second = await reviewsOf(product, 2);
    const response = await page.goto(`/product/${product.slug}/?cpage=2`);
    const html = await response.text();
    assert.ok(html.includes(`id="comment-${second.reviews[0].id}"`), 'the server renders the second page of reviews');
    await expectAttribute(reviewsTab(page), 'aria-selected', 'true');
    await expectCount(page.locator(`#comment-${second.reviews[0].id}`), 1);
    await expectCount(page.locator(`#comment-${first.reviews[0].id}`), 0);
    await page.getByRole('navigation', { name: 'Review pages' }).getByRole('link', { name: 'Reviews page 1', exact: true }).click();
    await expectCount(page.locator(`#comment-${first.reviews[0].id}`), 1);
  });

  shop.test('a guest’s review: the rating alert, stars by keyboard, waiting for staff, shown once approved', viewport, async ({ page, shot }) => {
    // Each viewport reviews a product of its own: the shop is shared between them.
    const unreviewed = (await shop.api.allProducts()).filter((p) => p.review_count === 0 && p.type === 'simple');
    const product = unreviewed[viewport.width > 600 ? 1 : 0];
    assert.ok(product, 'the demo shop has products without reviews');
    await page.goto(`/product/${product.slug}/#reviews`);
    await expectAttribute(reviewsTab(page), 'aria-selected', 'true');
    const form = page.getByRole('form', { name: /^Add a review of/ });
    await form.getByLabel(/Your review/).fill(`Solid and well made (${viewport.width}).`);
    await form.getByLabel(/^Name/).fill('Gwen');
    await form.getByLabel(/^Email/).fill(`gwen-${viewport.width}@example.test`);

    // No stars: the shop's alert, and nothing is sent.
    const dialogs = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    let sent = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes(`/products/${product.id}/reviews`)) sent += 1;
    });
    await form.getByRole('button', { name: 'Submit' }).click();
    await eventually(() => dialogs, (d) => d.length === 1, 'the rating alert');
    assert.deepEqual(dialogs, ['Please select a rating']);
    assert.equal(sent, 0);

    // Four stars by keyboard alone.
    await form.getByRole('radio', { name: /^1 of 5 stars/ }).focus();
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
    await expectAttribute(form.getByRole('radio', { name: /^4 of 5 stars/ }), 'aria-checked', 'true');
    await expectNoAxeViolations(page, `the review form at ${viewport.width} px`);
    await shot('review-form');
    // Sent from the keyboard too: the full-page capture has just scrolled and resized
    // the page, and a pointer aimed while the sticky bars settle can land on one.
    await form.getByRole('button', { name: 'Submit' }).press('Enter');
    await expectTextContaining(page.getByRole('status').filter({ hasText: 'awaiting approval' }), 'Your review is awaiting approval');
    await expectTextContaining(page.getByRole('list', { name: 'Your reviews awaiting approval' }), 'Solid and well made');
    const waiting = (await page.evaluate(async (url) => (await fetch(url)).json(), `${REST}/products/${product.id}/reviews`)).awaiting_moderation[0];
    assert.ok(waiting, 'the guest’s review waits');

    // Staff approve it: the product's figures and the list follow.
    const auth = staffKey();
    const approve = await fetch(`${shop.baseURL}/wp-json/wc/v3/products/reviews/${waiting.id}`, {
      method: 'PUT',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ status: 'approved' }),
    });
    assert.equal(approve.status, 200);
    await eventually(async () => (await shop.api.product(product.id)).review_count, (n) => n === 1, 'the product to count the review');
    // A new page (not just another fragment of this one).
    await page.goto(`/product/${product.slug}/?approved=1#comment-${waiting.id}`);
    await expectTextContaining(page.locator(`#comment-${waiting.id}`), 'Solid and well made');
    await expectCount(page.getByRole('img', { name: 'Rated 4.00 out of 5' }).first(), 1);
  });

  shop.test('a customer replies under a review; the reply shows nested at once', viewport, async ({ page, shot }) => {
    const product = await reviewedProduct();
    const first = await reviewsOf(product);
    const target = first.reviews[0];
    const email = `replier-${viewport.width}-${Date.now()}@example.test`;
    await registerCustomer(shop.baseURL, { email, password: PASSWORD, first_name: 'Rita' });
    await page.goto('/my-account/');
    const login = page.getByRole('form', { name: 'Login' });
    await login.getByLabel('Username or email address').fill(email);
    await login.locator('input[name="password"]').fill(PASSWORD);
    await login.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('navigation', { name: 'Account pages' }).waitFor();

    await page.goto(`/product/${product.slug}/#reviews`);
    await page.getByRole('button', { name: `Reply to ${target.author}` }).first().click();
    const form = page.getByRole('form', { name: `Reply to ${target.author}` });
    await expectCount(form.getByRole('radiogroup'), 0);
    await form.getByLabel(/Your reply/).fill('Same here: it has lasted two winters.');
    await shot('review-reply-form');
    await form.getByRole('button', { name: 'Post reply' }).press('Enter');
    await expectTextContaining(page.getByRole('status').filter({ hasText: 'reply' }), 'your reply has been posted');
    await expectTextContaining(page.locator(`#li-comment-${target.id} ol.children`), 'Same here: it has lasted two winters.');
  });

  shop.test(
    'without scripts the review form posts to the original’s address and comes back to the review',
    viewport,
    async ({ page }) => {
      const unreviewed = (await shop.api.allProducts()).filter((p) => p.review_count === 0 && p.type === 'simple' && p.is_in_stock);
      const product = unreviewed[viewport.width > 600 ? 3 : 2];
      await page.goto(`/product/${product.slug}/`);
      const form = page.locator('form[action="/wp-comments-post.php"]');
      await form.locator('select#rating').selectOption('5');
      await form.locator('textarea[name="comment"]').fill('Lovely, and without any scripts.');
      await form.locator('input[name="author"]').fill('Nora');
      await form.locator('input[name="email"]').fill(`nora-${viewport.width}@example.test`);
      await form.getByRole('button', { name: 'Submit' }).click();
      // Guests wait for staff: back at the product, the review named, listed to its author.
      await expectURL(page, (url) => url.pathname === `/product/${product.slug}/` && /^#comment-\d+$/.test(url.hash), 'be back at the product at the review');
      await expectTextContaining(page.locator('body'), 'Your review is awaiting approval');
      // A form whose nonce is not this session's is turned back with a notice.
      await page.goto(`/product/${product.slug}/`);
      await form.locator('input[name="ferroshop-review-nonce"]').evaluate((input) => {
        input.value = '0000000000';
      });
      await form.locator('select#rating').selectOption('3');
      await form.locator('textarea[name="comment"]').fill('Another one.');
      await form.locator('input[name="author"]').fill('Nora');
      await form.locator('input[name="email"]').fill(`nora2-${viewport.width}@example.test`);
      await form.getByRole('button', { name: 'Submit' }).click();
      await expectURL(page, (url) => url.searchParams.has('review_error'), 'be back with the problem');
      await expectTextContaining(page.locator('body'), 'This page has expired');
    },
    { javaScriptEnabled: false },
  );
});

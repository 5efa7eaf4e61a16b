// The product page's gallery: the slider drawn by the server as it first shows and
// taken over without a shift (its code and the viewer's fetched only on product
// pages, after the first paint), the slideshow moving on every 7 s and stopping for
// good once the shopper uses the gallery (with its pause/play control), swipes on a
// touch screen, arrows and thumbnails by keyboard alone, hover zoom for a mouse, a
// chosen variation's image brought to the front, and the full-screen viewer: counter,
// next and previous, zoom, the share menu's links, Escape and focus return, the
// controls going idle, the loading indicator and a failed image's message.

import assert from 'node:assert/strict';
import path from 'node:path';
import { chooseOption, decodeEntities } from './support/api.mjs';
import { eventually, expectAttribute, expectNoAxeViolations, expectText, waitFor } from './support/checks.mjs';
import { perViewport, SCREENSHOT_DIR, useShop } from './support/shop.mjs';

const shop = useShop(import.meta.url);

const SLIDESHOW_DELAY_MS = 7000;
const IDLE_MS = 4000;
const LOADING_DELAY_MS = 1000;
const GALLERY_CHUNK = /\/assets\/gallery-(slider|viewer)-[^/]*\.(js|css)$/;
const SLIDER_CHUNK = /\/assets\/gallery-slider-[^/]*\.js$/;
const VIEWER_CHUNK = /\/assets\/gallery-viewer-[^/]*\.js$/;

/** A simple product in stock with three images. */
function galleryProduct() {
  return shop.api.pickProduct('simple product with three images', (p) => p.type === 'simple' && p.is_in_stock && p.images.length === 3);
}

/** Records the page's layout shifts (those not caused by input), from its first paint. */
async function recordLayoutShifts(context) {
  await context.addInitScript(() => {
    window.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        const sources = (entry.sources ?? []).map((s) => `${s.node?.nodeName ?? '?'}.${String(s.node?.className ?? '')}`);
        window.__shifts.push({ value: entry.value, at: Math.round(entry.startTime), sources });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

const gallery = (page) => page.getByRole('region', { name: /images$/ });
const viewer = (page) => page.getByRole('dialog', { name: /images$/ });

/** Opens the product page and waits for the slider to take the gallery over. */
async function openGallery(page, product) {
  await page.goto(`/product/${product.slug}/`);
  await page.locator('[data-slider="ready"]').waitFor({ state: 'attached' });
}

/** "Image 2 of 3": the slide shown. */
const shownSlide = (page) => page.getByTestId('product-main-image').getAttribute('aria-label');

async function expectSlide(page, label, options) {
  await eventually(() => shownSlide(page), (shown) => shown === label, `the gallery to show ${label}`, options);
}

perViewport((viewport) => {
  shop.test('the server draws the gallery as the slider shows it; taking over moves nothing and loads nothing elsewhere', viewport, async ({ page, context, shot }) => {
    const product = await galleryProduct();
    const html = await (await page.request.get(`/product/${product.slug}/`)).text();
    const imgs = [...html.matchAll(/<img[^>]*>/g)].map(([tag]) => tag);
    const main = imgs.find((tag) => tag.includes(`src="${product.images[0].src}"`) && /fetchpriority="high"/i.test(tag));
    assert.ok(main, 'the first image is fetched first');
    assert.match(main, /loading="eager"/);
    assert.match(main, /sizes="\(min-width: 1024px\) 600px, 100vw"/);
    for (const image of product.images.slice(1)) {
      const slide = imgs.find((tag) => tag.includes(`src="${image.src}"`) && tag.includes('sizes='));
      assert.ok(slide, `slide ${image.src} is in the page`);
      assert.match(slide, /loading="lazy"/, 'the other slides wait for their turn');
      assert.doesNotMatch(slide, /fetchpriority/i);
    }
    assert.match(html, /Show image 3 of 3/, 'the thumbnails are in the page');

    await recordLayoutShifts(context);
    const requested = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto('/');
    await page.goto('/shop/');
    await page.goto('/cart/');
    assert.deepEqual(requested.filter((url) => GALLERY_CHUNK.test(url)), [], 'no gallery code on the home, shop and cart pages');

    await openGallery(page, product);
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
      const chunks = performance
        .getEntriesByType('resource')
        .filter((entry) => /\/assets\/gallery-(slider|viewer)-/.test(entry.name))
        .map((entry) => ({ name: entry.name, start: entry.startTime }));
      return { paint, chunks };
    });
    assert.ok(timing.paint > 0, 'the page painted');
    const slider = timing.chunks.filter((chunk) => SLIDER_CHUNK.test(chunk.name));
    assert.equal(slider.length, 1, `the slider's chunk was fetched once: ${JSON.stringify(timing.chunks)}`);
    assert.ok(slider[0].start > timing.paint, `the slider's chunk came after the first paint (${slider[0].start} > ${timing.paint})`);
    assert.ok(!timing.chunks.some((chunk) => VIEWER_CHUNK.test(chunk.name)), 'the viewer waits until it is wanted');

    // Give a late shift time to land: the slider has taken over and drawn its controls.
    await gallery(page).getByRole('button', { name: 'View full-screen' }).waitFor();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const shifts = await page.evaluate(() => window.__shifts);
    const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
    assert.ok(total < 0.02, `layout shift ${total.toFixed(4)} while the slider took over: ${JSON.stringify(shifts)}`);
    await shot('gallery-slider');

    await gallery(page).getByRole('button', { name: 'View full-screen' }).click();
    await viewer(page).waitFor();
    assert.ok(requested.some((url) => VIEWER_CHUNK.test(url)), "opening the viewer fetched the viewer's chunk");
  });

  shop.test('the slideshow moves on every 7 s, stops for good once the shopper uses the gallery, and has a pause/play control', viewport, async ({ page }) => {
    const product = await galleryProduct();
    // The shop's browser tests ask for reduced motion, which starts the slideshow paused.
    await openGallery(page, product);
    await gallery(page).getByRole('button', { name: 'Play slideshow' }).waitFor();

    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.clock.install();
    await openGallery(page, product);
    await gallery(page).getByRole('button', { name: 'Pause slideshow' }).waitFor();
    assert.equal(await shownSlide(page), 'Image 1 of 3');
    // Just short of the delay nothing moves; at it the next image comes.
    await page.clock.fastForward(SLIDESHOW_DELAY_MS - 500);
    assert.equal(await shownSlide(page), 'Image 1 of 3');
    await page.clock.fastForward(600);
    await expectSlide(page, 'Image 2 of 3');
    await page.clock.fastForward(SLIDESHOW_DELAY_MS + 100);
    await expectSlide(page, 'Image 3 of 3');
    // It loops.
    await page.clock.fastForward(SLIDESHOW_DELAY_MS + 100);
    await expectSlide(page, 'Image 1 of 3');

    // The pause control stops it, and the play control starts it again.
    await gallery(page).getByRole('button', { name: 'Pause slideshow' }).click();
    await gallery(page).getByRole('button', { name: 'Play slideshow' }).waitFor();
    await page.clock.fastForward(SLIDESHOW_DELAY_MS * 2);
    assert.equal(await shownSlide(page), 'Image 1 of 3', 'a paused slideshow stays');
    await gallery(page).getByRole('button', { name: 'Play slideshow' }).click();
    await gallery(page).getByRole('button', { name: 'Pause slideshow' }).waitFor();
    await page.clock.fastForward(SLIDESHOW_DELAY_MS + 100);
    await expectSlide(page, 'Image 2 of 3');

    // A thumbnail is a use of the gallery: the slideshow stops for good.
    await gallery(page).getByRole('button', { name: 'Show image 3 of 3' }).click();
    await expectSlide(page, 'Image 3 of 3');
    await gallery(page).getByRole('button', { name: 'Play slideshow' }).waitFor();
    await page.clock.fastForward(SLIDESHOW_DELAY_MS * 3);
    assert.equal(await shownSlide(page), 'Image 3 of 3', 'the slideshow stopped after the thumbnail');

    // So is a press on the image itself (the arrows, the viewer…).
    await gallery(page).getByRole('button', { name: 'Play slideshow' }).click();
    await gallery(page).getByRole('button', { name: 'Next image' }).click();
    await expectSlide(page, 'Image 1 of 3');
    await gallery(page).getByRole('button', { name: 'Play slideshow' }).waitFor();
    await page.clock.fastForward(SLIDESHOW_DELAY_MS * 2);
    assert.equal(await shownSlide(page), 'Image 1 of 3', 'the slideshow stopped after the arrow');
  });

  shop.test('arrows and thumbnails work by keyboard alone, with visible focus, and the slide shown is read out', viewport, async ({ page, shot }) => {
    const product = await galleryProduct();
    await openGallery(page, product);
    await expectAttribute(gallery(page), 'aria-roledescription', 'carousel');
    await expectAttribute(page.getByTestId('product-main-image'), 'aria-roledescription', 'slide');

    // Tab from the breadcrumbs into the gallery: pause/play first, then the arrows.
    await page.getByRole('navigation', { name: /breadcrumb/i }).getByRole('link').last().focus();
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() || document.activeElement?.getAttribute('aria-label'));
    const tabTo = async (name) => {
      for (let step = 0; step < 12 && (await focused()) !== name; step += 1) await page.keyboard.press('Tab');
      assert.equal(await focused(), name, `Tab reaches "${name}"`);
      const outline = await page.evaluate(() => {
        const el = document.activeElement;
        return el.matches(':focus-visible') ? getComputedStyle(el).outlineStyle : 'not focus-visible';
      });
      assert.notEqual(outline, 'none', `"${name}" shows its focus`);
      assert.notEqual(outline, 'not focus-visible', `"${name}" shows its focus`);
    };
    await tabTo('Play slideshow');
    await tabTo('Next image');
    await page.keyboard.press('Enter');
    await expectSlide(page, 'Image 2 of 3');
    await expectText(page.locator('#a11y-speak-polite'), 'Image 2 of 3');
    await page.keyboard.press('Space');
    await expectSlide(page, 'Image 3 of 3');
    await page.keyboard.press('Space');
    await expectSlide(page, 'Image 1 of 3');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focused(), 'Previous image');
    await page.keyboard.press('Enter');
    await expectSlide(page, 'Image 3 of 3');

    await tabTo('Show image 2 of 3');
    await page.keyboard.press('Enter');
    await expectSlide(page, 'Image 2 of 3');
    await expectAttribute(gallery(page).getByRole('button', { name: 'Show image 2 of 3' }), 'aria-pressed', 'true');
    await expectAttribute(gallery(page).getByRole('button', { name: 'Show image 3 of 3' }), 'aria-pressed', 'false');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await expectSlide(page, 'Image 3 of 3');
    await expectText(page.locator('#a11y-speak-polite'), 'Image 3 of 3');
    // The slide shown is the one whose image is named; the others are hidden from screen readers.
    await expectAttribute(page.getByTestId('product-main-image').getByRole('img'), 'alt', product.images[2].alt);
    await waitFor(async () => (await gallery(page).locator('[aria-roledescription="slide"]:not([aria-hidden="true"])').count()) === 1, {
      message: 'one slide exposed',
    });
    await expectNoAxeViolations(page, 'the product gallery');
    await shot('gallery-keyboard');
  });

  shop.test(viewport.width < 768 ? 'swipes on a touch screen move the slides, and a phone has no hover zoom' : 'hover zoom magnifies the image under the mouse', viewport, async ({ page, context }) => {
    const product = await galleryProduct();
    await openGallery(page, product);
    const box = await page.getByTestId('product-main-image').boundingBox();
    if (viewport.width < 768) {
      // Touch events as a phone sends them.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
      const y = box.y + box.height / 2;
      const swipe = async (from, to) => {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from, y }] });
        for (let step = 1; step <= 8; step += 1) {
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from + ((to - from) * step) / 8, y }] });
        }
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      };
      await swipe(box.x + box.width * 0.85, box.x + box.width * 0.15);
      await expectSlide(page, 'Image 2 of 3');
      await swipe(box.x + box.width * 0.15, box.x + box.width * 0.85);
      await expectSlide(page, 'Image 1 of 3');
      await swipe(box.x + box.width * 0.15, box.x + box.width * 0.85);
      await expectSlide(page, 'Image 3 of 3');
      // A swipe is a use of the gallery: the slideshow is off.
      await gallery(page).getByRole('button', { name: 'Play slideshow' }).waitFor();
      // No hover zoom on a phone's screen, even under a mouse.
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.move(box.x + box.width / 3, box.y + box.height / 3);
      assert.equal(await page.getByTestId('gallery-zoom').count(), 0);
      return;
    }
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width / 4, box.y + box.height / 4, { steps: 4 });
    const zoom = page.getByTestId('gallery-zoom');
    await zoom.waitFor();
    await waitFor(() => zoom.evaluate((img) => img.complete && img.naturalWidth > 0), { message: 'the zoomed image to load' });
    const style = await zoom.evaluate((img) => ({ transform: img.style.transform, origin: img.style.transformOrigin }));
    assert.equal(style.transform, 'scale(2)');
    const [x, y] = style.origin.split(' ').map(parseFloat);
    assert.ok(Math.abs(x - 25) < 2 && Math.abs(y - 25) < 2, `zoomed about the pointer: ${style.origin}`);
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.6, { steps: 4 });
    const moved = (await zoom.evaluate((img) => img.style.transformOrigin)).split(' ').map(parseFloat);
    assert.ok(Math.abs(moved[0] - 80) < 2 && Math.abs(moved[1] - 60) < 2, `the zoom follows the pointer: ${moved}`);
    const rendered = await zoom.boundingBox();
    assert.ok(rendered.width > box.width * 1.9, 'the image is magnified');
    // The page as it stands, under the mouse (shot() would scroll it away).
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `gallery-hover-zoom-${viewport.width}px.png`) });
    await page.mouse.move(box.x + box.width / 2, box.y + box.height + 300);
    await waitFor(async () => (await zoom.count()) === 0, { message: 'the zoom to end when the mouse leaves' });
  });

  shop.test('the viewer: counter, arrows, zoom, share links, Escape and focus return, idle controls', viewport, async ({ page, shot }) => {
    const product = await galleryProduct();
    await openGallery(page, product);
    await expectNoAxeViolations(page, 'the product page, viewer closed');
    const opener = gallery(page).getByRole('button', { name: 'View full-screen' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = viewer(page);
    await dialog.waitFor();
    await expectAttribute(dialog, 'aria-modal', 'true');
    const counter = dialog.locator('.pswp__counter');
    await expectText(counter, '1 / 3');
    // Focus stays inside the viewer, forwards and backwards.
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      assert.ok(await page.evaluate(() => Boolean(document.activeElement?.closest('.pswp'))), `focus stays in the viewer after ${key}`);
    }
    await dialog.getByRole('button', { name: 'Next image' }).click();
    await expectText(counter, '2 / 3');
    await page.keyboard.press('ArrowRight');
    await expectText(counter, '3 / 3');
    await dialog.getByRole('button', { name: 'Previous image' }).click();
    await expectText(counter, '2 / 3');
    const current = dialog.locator('.pswp__item[aria-hidden="false"] img.pswp__img:not(.pswp__img--placeholder)');
    await expectAttribute(current, 'alt', product.images[1].alt);
    await waitFor(() => current.evaluate((img) => img.complete && img.naturalWidth > 0), { message: 'the large image to load' });
    if (product.images[1].caption) await expectText(dialog.locator('.pswp__caption'), product.images[1].caption);

    // Zoom in and out again.
    const root = page.locator('.pswp');
    await dialog.getByRole('button', { name: 'Zoom in or out (z)' }).click();
    await waitFor(async () => (await root.getAttribute('class')).includes('pswp--zoomed-in'), { message: 'the image to zoom in' });
    await dialog.getByRole('button', { name: 'Zoom in or out (z)' }).click();
    await waitFor(async () => !(await root.getAttribute('class')).includes('pswp--zoomed-in'), { message: 'the image to zoom out' });

    // Share: links from the page's canonical address and the image's.
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    assert.ok(canonical, 'the product page has a canonical link');
    const share = dialog.getByRole('button', { name: 'Share' });
    await share.click();
    await expectAttribute(share, 'aria-expanded', 'true');
    const menu = dialog.locator('.pswp__share-menu');
    const href = (name) => menu.getByRole('link', { name }).getAttribute('href');
    const image = new URL(product.images[1].src, shop.baseURL).href;
    assert.equal(await href('Share on Facebook'), `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(canonical)}`);
    const tweet = new URL(await href('Tweet'));
    assert.equal(tweet.origin + tweet.pathname, 'https://twitter.com/intent/tweet');
    assert.deepEqual(Object.fromEntries(tweet.searchParams), { text: decodeEntities(product.name), url: canonical });
    const pin = new URL(await href('Pin it'));
    assert.equal(pin.origin + pin.pathname, 'https://www.pinterest.com/pin/create/button/');
    assert.deepEqual(Object.fromEntries(pin.searchParams), { url: canonical, media: image, description: decodeEntities(product.name) });
    assert.equal(await href('Download image'), image);
    assert.equal(await menu.getByRole('link', { name: 'Download image' }).getAttribute('download'), '');
    await expectNoAxeViolations(page, 'the viewer with its share menu open');
    await shot('gallery-viewer-share');
    // Escape closes the menu first, then the viewer.
    await page.keyboard.press('Escape');
    await expectAttribute(share, 'aria-expanded', 'false');
    assert.ok(await dialog.isVisible(), 'the viewer stays open');
    await expectNoAxeViolations(page, 'the viewer');
    await shot('gallery-viewer');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await waitFor(() => opener.evaluate((button) => document.activeElement === button), { message: 'focus back on the opener' });
    // The gallery shows the image the viewer was left on.
    await expectSlide(page, 'Image 2 of 3');

    // A click on the image opens the viewer too; left alone, its controls go idle
    // after 4 s, and the pointer brings them back.
    const box = await page.getByTestId('product-main-image').boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await dialog.waitFor();
    await expectText(counter, '2 / 3');
    const openedAt = Date.now();
    await waitFor(async () => (await root.getAttribute('class')).includes('pswp--idle'), { timeout: IDLE_MS + 3000, message: 'the controls to go idle' });
    assert.ok(Date.now() - openedAt >= IDLE_MS - 300, `idle after ${Date.now() - openedAt} ms, not before 4 s`);
    await waitFor(async () => (await dialog.locator('.pswp__top-bar').evaluate((bar) => getComputedStyle(bar).opacity)) === '0', {
      message: 'the top bar to fade',
    });
    await page.mouse.move(box.x + 20, box.y + 20, { steps: 2 });
    await waitFor(async () => !(await root.getAttribute('class')).includes('pswp--idle'), { message: 'the controls to come back' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  shop.test('a viewer image that fails shows the loading indicator, then says so with a link to the image', viewport, async ({ page, shot }) => {
    const product = await galleryProduct();
    const broken = product.images[1];
    const file = new URL(broken.src).pathname;
    let failedAt = 0;
    await openGallery(page, product);
    // From now on the image's file is slow and then fails (the slide already has it).
    await page.route(
      (url) => url.pathname === file,
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, LOADING_DELAY_MS + 1500));
        failedAt = Date.now();
        await route.abort('failed');
      },
    );
    await gallery(page).getByRole('button', { name: 'Show image 2 of 3' }).click();
    await expectSlide(page, 'Image 2 of 3');
    const openedAt = Date.now();
    await gallery(page).getByRole('button', { name: 'View full-screen' }).click();
    const dialog = viewer(page);
    await dialog.waitFor();
    const preloader = dialog.locator('.pswp__preloader');
    await waitFor(async () => (await preloader.getAttribute('class')).includes('pswp__preloader--active'), { message: 'the loading indicator' });
    const shownAfter = Date.now() - openedAt;
    assert.ok(shownAfter >= LOADING_DELAY_MS - 200, `the loading indicator waited 1 s (${shownAfter} ms)`);
    assert.ok(failedAt === 0, 'the indicator showed while the image was loading');
    const message = dialog.locator('.pswp__error-msg');
    await expectText(message, 'The image could not be loaded.');
    await expectAttribute(message.getByRole('link', { name: 'The image' }), 'href', broken.src);
    await waitFor(async () => !(await preloader.getAttribute('class')).includes('pswp__preloader--active'), { message: 'the indicator to go' });
    await expectNoAxeViolations(page, 'the viewer with a failed image');
    await shot('gallery-viewer-error');
  });

  shop.test("a chosen variation's image comes to the front", viewport, async ({ page }) => {
    const listed = await shop.api.pickProduct('variable product with images', (p) => p.type === 'variable' && p.is_in_stock && p.images.length >= 3);
    const product = await shop.api.product(listed.id);
    const attributes = product.attributes.filter((a) => a.has_variations);
    // A variation in stock whose image is one of the gallery's, but not the first.
    let target = null;
    for (const ref of product.variations) {
      const variation = await shop.api.product(ref.id);
      const index = product.images.findIndex((image) => image.id === variation.images[0]?.id);
      if (variation.is_in_stock && index > 0) {
        target = { ref, index };
        break;
      }
    }
    assert.ok(target, `${product.name} has a variation showing another of its images`);
    await openGallery(page, product);
    const main = page.getByRole('main');
    for (const attribute of attributes) {
      await chooseOption(main, attribute, target.ref.attributes.find((a) => a.name === attribute.name).value);
    }
    const count = product.images.length;
    await expectSlide(page, `Image ${target.index + 1} of ${count}`);
    await expectAttribute(page.getByTestId('product-main-image').getByRole('img'), 'src', product.images[target.index].src);
    await expectAttribute(gallery(page).getByRole('button', { name: `Show image ${target.index + 1} of ${count}` }), 'aria-pressed', 'true');
    // Choosing is a use of the gallery: no slideshow carries the image away.
    await gallery(page).getByRole('button', { name: 'Play slideshow' }).waitFor();
  });
});

// Per test file: one Ferroshop server and one Chromium; per test: a fresh browser
// context (so fresh cookies and an empty cart) at the test's viewport.
//
//   CHROMIUM_PATH    Chromium or Chrome binary (default /usr/bin/chromium)
//   E2E_SCREENSHOTS  where screenshots go (default <os tmpdir>/ferroshop-e2e-shots)

import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { StoreApi } from './api.mjs';
import { DEFAULT_TIMEOUT_MS } from './checks.mjs';
import { checkPrerequisites, startServer } from './server.mjs';

export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

export const SCREENSHOT_DIR = path.resolve(process.env.E2E_SCREENSHOTS || path.join(tmpdir(), 'ferroshop-e2e-shots'));

/** How long one browser test may take before node:test gives up on it. */
export const TEST_TIMEOUT_MS = 90_000;

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function launchBrowser() {
  const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  try {
    return await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  } catch (error) {
    throw new Error(
      `Could not launch Chromium at ${executablePath} (set CHROMIUM_PATH, or run ./scripts/ensure-chromium): ${error.message}`,
    );
  }
}

function fileSafe(text) {
  return text.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase().slice(0, 80);
}

/**
 * Registers the file's before/after hooks (call it with `import.meta.url`) and
 * returns the shop handle:
 * `shop.baseURL`, `shop.api` (the live Store API) and `shop.run(viewport, fn)`.
 */
export function useShop(fileUrl, { env = {} } = {}) {
  const fileStem = fileSafe(path.basename(fileURLToPath(fileUrl), '.test.mjs'));
  // No binary or no built storefront: fail the file at once, saying what to do.
  checkPrerequisites();
  let server;
  let browser;
  let startupError = null;
  let shots = 0;

  const shop = {
    baseURL: '',
    api: null,
    /** The server's log so far. */
    serverOutput: () => server?.output() ?? '',
    /** Runs `ferroshop ARGS… --database` over the shop's database; returns its output. */
    command: (...args) => server.command(...args),

    /** A node:test test that runs `fn` through `shop.run` at `viewport`. */
    test(name, viewport, fn, options = {}) {
      test(name, { timeout: TEST_TIMEOUT_MS }, () => shop.run(viewport, fn, { ...options, name: `${name} ${viewport.name}` }));
    },

    /**
     * Runs `fn({ page, context, viewport, shot })` in a new context. Uncaught page
     * errors fail the test; a failing test leaves a screenshot behind.
     */
    async run(viewport, fn, { name = 'test', javaScriptEnabled = true } = {}) {
      // A server or browser that did not start fails every test with the reason.
      if (startupError) throw startupError;
      const context = await browser.newContext({
        baseURL: server.baseURL,
        viewport: { width: viewport.width, height: viewport.height },
        locale: 'en-US',
        timezoneId: 'UTC',
        reducedMotion: 'reduce',
        javaScriptEnabled,
      });
      context.setDefaultTimeout(DEFAULT_TIMEOUT_MS);
      context.setDefaultNavigationTimeout(20_000);
      const pageErrors = [];
      context.on('page', (page) => page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`)));
      const page = await context.newPage();
      if (javaScriptEnabled) waitForTheAppOnNavigation(page);
      const shot = async (label, target = page) => {
        // From the top, so a sticky header sits where it belongs in a full-page capture.
        await target.evaluate(() => window.scrollTo(0, 0));
        await settleImages(target);
        const file = path.join(SCREENSHOT_DIR, `${fileSafe(label)}-${viewport.width}px.png`);
        await target.screenshot({ path: file, fullPage: true, animations: 'disabled' });
        shots += 1;
        return file;
      };
      try {
        await fn({ page, context, viewport, shot });
        if (pageErrors.length > 0) throw new Error(`Uncaught errors in the page:\n${pageErrors.join('\n')}`);
      } catch (error) {
        for (const [index, open] of context.pages().entries()) {
          const file = path.join(SCREENSHOT_DIR, `FAILED-${fileStem}-${fileSafe(name)}-${viewport.width}px-${index}.png`);
          await open.screenshot({ path: file, fullPage: true }).catch(() => {});
          error.message += `\n(screenshot of the page at ${open.url()}: ${file})`;
        }
        throw error;
      } finally {
        await context.close().catch(() => {});
      }
    },
  };

  before(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    // This file's failure screenshots from an earlier run would only mislead.
    for (const old of readdirSync(SCREENSHOT_DIR)) {
      if (old.startsWith(`FAILED-${fileStem}-`)) rmSync(path.join(SCREENSHOT_DIR, old), { force: true });
    }
    try {
      server = await startServer({ env });
      shop.baseURL = server.baseURL;
      shop.api = new StoreApi(server.baseURL);
      browser = await launchBrowser();
    } catch (error) {
      startupError = error;
    }
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    if (shots > 0) console.log(`${shots} screenshots saved in ${SCREENSHOT_DIR}`);
  });

  return shop;
}

/**
 * Pages arrive rendered and the app takes them over after the first paint: a test, like
 * a shopper, acts once it has (html[data-app="ready"]). goto and reload wait for it.
 */
function waitForTheAppOnNavigation(page) {
  for (const name of ['goto', 'reload']) {
    const navigate = page[name].bind(page);
    page[name] = async (...args) => {
      const response = await navigate(...args);
      await page.waitForSelector('html[data-app="ready"]', { state: 'attached', timeout: DEFAULT_TIMEOUT_MS * 2 });
      return response;
    };
  }
}

/** Lets the images in view finish loading so screenshots show them (never fails). */
async function settleImages(page) {
  await page
    .waitForFunction(
      () =>
        [...document.images].every((image) => {
          const rect = image.getBoundingClientRect();
          const inView = rect.bottom > 0 && rect.top < window.innerHeight;
          return image.complete || (image.loading === 'lazy' && !inView);
        }),
      undefined,
      { timeout: 3000 },
    )
    .catch(() => {});
}

/** Registers `body(viewport)` once per viewport, in a suite named after its width. */
export function perViewport(body) {
  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width} px (${viewport.name})`, () => body(viewport));
  }
}

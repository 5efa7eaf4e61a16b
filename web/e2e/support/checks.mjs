// Polling assertions. playwright-core has locators (which wait for elements) but no
// `expect`; these retry a check until it holds or the time is up, then fail with
// what was last seen. No fixed sleeps anywhere.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const DEFAULT_TIMEOUT_MS = 10_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls `check` until it returns without throwing and not `false`; returns its value.
 * On timeout throws `message` with the last error or value.
 */
export async function waitFor(check, { timeout = DEFAULT_TIMEOUT_MS, interval = 50, message = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      const value = await check();
      if (value !== false) return value;
      last = 'returned false';
    } catch (error) {
      last = error?.message ?? String(error);
    }
    if (Date.now() >= deadline) {
      throw new Error(`Timed out after ${timeout} ms waiting for ${message}: ${last}`);
    }
    await sleep(interval);
  }
}

const normalise = (text) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The locator's text, whitespace collapsed (visually hidden text included). */
export async function textOf(locator) {
  return normalise(await locator.textContent({ timeout: 1000 }));
}

function matches(actual, expected) {
  return expected instanceof RegExp ? expected.test(actual) : actual === expected;
}

/** Waits until the locator's text equals `expected` (a string) or matches it (a RegExp). */
export async function expectText(locator, expected, options = {}) {
  return waitFor(
    async () => {
      const actual = await textOf(locator);
      assert.ok(matches(actual, expected), `text is ${JSON.stringify(actual)}`);
      return actual;
    },
    { message: `${locator} to have text ${expected instanceof RegExp ? expected : JSON.stringify(expected)}`, ...options },
  );
}

/** Waits until the locator's text contains `expected`. */
export async function expectTextContaining(locator, expected, options = {}) {
  return waitFor(
    async () => {
      const actual = await textOf(locator);
      assert.ok(actual.includes(expected), `text is ${JSON.stringify(actual)}`);
      return actual;
    },
    { message: `${locator} to contain ${JSON.stringify(expected)}`, ...options },
  );
}

export async function expectCount(locator, count, options = {}) {
  return waitFor(
    async () => {
      const actual = await locator.count();
      assert.equal(actual, count, `count is ${actual}`);
    },
    { message: `${locator} to match ${count} element(s)`, ...options },
  );
}

export async function expectAttribute(locator, name, expected, options = {}) {
  return waitFor(
    async () => {
      const actual = await locator.getAttribute(name, { timeout: 1000 });
      assert.ok(
        expected === null ? actual === null : actual !== null && matches(actual, expected),
        `${name} is ${JSON.stringify(actual)}`,
      );
      return actual;
    },
    { message: `${locator} to have ${name}=${expected instanceof RegExp ? expected : JSON.stringify(expected)}`, ...options },
  );
}

export async function expectValue(locator, expected, options = {}) {
  return waitFor(
    async () => {
      const actual = await locator.inputValue({ timeout: 1000 });
      assert.equal(actual, expected, `value is ${JSON.stringify(actual)}`);
    },
    { message: `${locator} to have value ${JSON.stringify(expected)}`, ...options },
  );
}

export async function expectDisabled(locator, disabled = true, options = {}) {
  return waitFor(
    async () => {
      const actual = await locator.isDisabled({ timeout: 1000 });
      assert.equal(actual, disabled, `disabled is ${actual}`);
    },
    { message: `${locator} to be ${disabled ? 'disabled' : 'enabled'}`, ...options },
  );
}

/** Waits until the page's address passes `test` (given a URL). */
export async function expectURL(page, test, description, options = {}) {
  return waitFor(
    () => {
      const url = new URL(page.url());
      assert.ok(test(url), `address is ${url.pathname}${url.search}`);
      return url;
    },
    { message: `the address to ${description}`, ...options },
  );
}

/** Waits until `read()` (e.g. the server's cart) passes `test`; returns the value that did. */
export async function eventually(read, test, description, options = {}) {
  return waitFor(
    async () => {
      const value = await read();
      assert.ok(test(value), `last value: ${JSON.stringify(value)?.slice(0, 400)}`);
      return value;
    },
    { message: description, ...options },
  );
}

/** Where the notices and fields the shop scrolls to sit below the sticky header (the spec's offset). */
export const NOTICE_OFFSET_PX = 100;

/**
 * Waits until the element sits clear of the sticky header and in the window: its top
 * at least `offset` px below the header's bottom, or, when the page is at its top (it
 * cannot scroll further up), merely below the header.
 */
export async function expectClearOfHeader(page, locator, { offset = NOTICE_OFFSET_PX, ...options } = {}) {
  return waitFor(
    async () => {
      const place = await locator.evaluate((element) => {
        const header = document.querySelector('header').getBoundingClientRect();
        const box = element.getBoundingClientRect();
        return { top: box.top, headerBottom: header.bottom, scrollY: window.scrollY, height: window.innerHeight };
      });
      const least = place.scrollY > 0 ? place.headerBottom + offset - 1 : place.headerBottom;
      assert.ok(place.top >= least && place.top < place.height, `top at ${place.top}, header bottom at ${place.headerBottom}, scrolled ${place.scrollY}`);
      return place;
    },
    { message: `${locator} to sit below the sticky header`, ...options },
  );
}

/** How many lines the element's text takes (its text boxes at distinct heights). */
export async function lineCountOf(locator) {
  return locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top))).size;
  });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * What axe-core checks: WCAG 2.0, 2.1 and 2.2 at levels A and AA, axe's best
 * practices, and `label-content-name-mismatch` (WCAG 2.5.3, Label in Name), which
 * axe ships as experimental and so runs only when enabled by name.
 */
export const AXE_OPTIONS = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
  rules: { 'label-content-name-mismatch': { enabled: true } },
  resultTypes: ['violations'],
};

/**
 * Runs axe-core (with AXE_OPTIONS) over the page as it is now (open dialogs and
 * panels included) and fails on any violation, listing each rule with the elements
 * it found. The script is evaluated through the browser's debugging protocol, so the
 * shop's Content-Security-Policy (which allows no injected scripts) stays as it is.
 */
export async function expectNoAxeViolations(page, label) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (options) => {
    const result = await window.axe.run(document, options);
    return result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      elements: v.nodes.slice(0, 5).map((node) => `${node.target.join(' ')}: ${node.html.slice(0, 300)}`),
    }));
  }, AXE_OPTIONS);
  assert.deepEqual(violations, [], `axe-core violations on ${label}:\n${JSON.stringify(violations, null, 2)}`);
}

/**
 * Waits until the header's cart link is named by what it shows: "Cart: $81.00 3 items",
 * or "Cart: 3 items" where the header has no room for the total (the phone layout).
 */
export async function expectHeaderCartName(page, total, count) {
  const items = count === 1 ? '1 item' : `${count} items`;
  const totalShown = await page.getByTestId('header-cart-total').isVisible();
  await page
    .getByRole('banner')
    .getByRole('link', { name: totalShown ? `Cart: ${total} ${items}` : `Cart: ${items}`, exact: true })
    .waitFor({ timeout: DEFAULT_TIMEOUT_MS });
}

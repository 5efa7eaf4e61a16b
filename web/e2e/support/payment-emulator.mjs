// The payment provider's emulator for the browser tests: scripts/payment-emulator.py
// (localstripe on a free loopback port, state in memory), started once per test file
// before the shop so the shop can be pointed at it, reset between tests, stopped with
// the file. And the browser side: the Stripe.js test double (stripe-double.js) added to
// a context before the storefront's bundle runs, its calls forwarded to the emulator.
//
//   PAYMENT_EMULATOR_PYTHON   the Python with localstripe (default: <repo>/.venv/bin/python;
//                             ./scripts/ensure-python-tools installs it)

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkPrerequisites, REPO_ROOT } from './server.mjs';

export const STRIPE_DOUBLE_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), 'stripe-double.js');

/** Keys the shop and the double share; the emulator takes any `sk_…` key. */
export const TEST_KEYS = {
  publishableKey: 'pk_test_ferroshop_e2e',
  secretKey: 'sk_test_ferroshop_e2e',
  webhookSecret: 'whsec_ferroshop_e2e',
};

const STARTUP_TIMEOUT_MS = 20_000;

/** Starts the emulator; resolves with { baseURL, reset(), registerWebhook(), stop() }. */
export async function startPaymentEmulator() {
  const python = process.env.PAYMENT_EMULATOR_PYTHON || path.join(REPO_ROOT, '.venv', 'bin', 'python');
  if (!existsSync(python)) {
    throw new Error(`No Python with the payment emulator at ${python}: run ./scripts/ensure-python-tools (or set PAYMENT_EMULATOR_PYTHON).`);
  }
  // --exit-with-stdin: the emulator ends with this process, however it ends.
  const child = spawn(python, [path.join(REPO_ROOT, 'scripts', 'payment-emulator.py'), '--port', '0', '--exit-with-stdin'], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const baseURL = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The payment emulator did not start within ${STARTUP_TIMEOUT_MS / 1000} s.\n${output}`)), STARTUP_TIMEOUT_MS);
    const read = (chunk) => {
      output = (output + chunk.toString()).slice(-10_000);
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (chunk) => {
      output = (output + chunk.toString()).slice(-10_000);
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`The payment emulator could not be started: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`The payment emulator exited early (code ${code}, signal ${signal}).\n${output}`));
    });
  });

  const call = async (method, urlPath, form) => {
    const res = await fetch(new URL(urlPath, baseURL), {
      method,
      headers: form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {},
      body: form ? new URLSearchParams(form) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${urlPath} on the payment emulator answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return res;
  };

  return {
    baseURL,
    output: () => output,
    /** Forgets every customer, intent and method (webhook registrations stay). */
    reset: () => call('DELETE', '/_config/data'),
    /** Sends the provider's events to `url`, signed with `secret`. */
    registerWebhook: (name, url, secret) => call('POST', `/_config/webhooks/${encodeURIComponent(name)}`, { url, secret }),
    /** GET on the emulator's API with the secret key. */
    get: async (urlPath) => {
      const res = await fetch(new URL(urlPath, baseURL), { headers: { Authorization: `Bearer ${TEST_KEYS.secretKey}` } });
      if (!res.ok) throw new Error(`GET ${urlPath} on the payment emulator answered ${res.status}`);
      return res.json();
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * Starts the emulator for a test file, before the shop (await it at the top of the
 * file, then hand `env` to useShop: the shop's FERROSHOP_STRIPE_* settings pointing at
 * it), and stops it when the file's tests end. node:test does not wait for one root
 * `before` hook before it starts the next, so the emulator is up before any is
 * registered. `connectShop(baseURL)` sends the emulator's events to the shop's webhook
 * endpoint (once per file; webhook registrations survive the resets).
 */
export async function usePaymentEmulator({ webhookPath = '/?wc-api=wc_stripe' } = {}) {
  // Without the server binary or the built storefront the file fails at once, saying what to do.
  checkPrerequisites();
  const current = await startPaymentEmulator();
  after(() => current.stop());
  let connected = false;
  return {
    current,
    env: {
      FERROSHOP_STRIPE_PUBLISHABLE_KEY: TEST_KEYS.publishableKey,
      FERROSHOP_STRIPE_SECRET_KEY: TEST_KEYS.secretKey,
      FERROSHOP_STRIPE_WEBHOOK_SECRET: TEST_KEYS.webhookSecret,
      FERROSHOP_STRIPE_API_BASE: current.baseURL,
    },
    async connectShop(shopBaseURL) {
      if (connected) return;
      await current.registerWebhook('ferroshop', new URL(webhookPath, shopBaseURL).href, TEST_KEYS.webhookSecret);
      connected = true;
    },
  };
}

/** The path of the shop's origin the double's calls go to; the context forwards them. */
export const EMULATOR_PATH = '/__payment-emulator';

/**
 * Puts the Stripe.js double in a browser context, before any page of it loads:
 * `window.__stripeDouble` (where the emulator is, and how 3-D Secure and loading
 * should go), then the double itself. The shop's Content-Security-Policy lets a page
 * connect only to itself and the provider, so the double calls a path of the page's
 * own origin, which the context forwards to the emulator.
 */
export async function installStripeDouble(context, emulator, { authenticate, failToLoad = false } = {}) {
  const config = { apiBase: EMULATOR_PATH, secretKey: TEST_KEYS.secretKey, failToLoad };
  if (typeof authenticate === 'boolean') config.authenticate = authenticate;
  await context.addInitScript((value) => {
    window.__stripeDouble = value;
  }, config);
  await context.addInitScript({ path: STRIPE_DOUBLE_PATH });
  await context.route(`**${EMULATOR_PATH}/**`, async (route) => {
    const asked = new URL(route.request().url());
    const target = new URL(asked.pathname.slice(EMULATOR_PATH.length) + asked.search, emulator.baseURL);
    const response = await route.fetch({ url: target.href });
    await route.fulfill({ response });
  });
}

/** Sets how the next 3-D Secure challenge goes (true, false, or undefined for the dialog). */
export async function setAuthentication(page, authenticate) {
  await page.evaluate((value) => {
    window.__stripeDouble ??= {};
    if (value === null) delete window.__stripeDouble.authenticate;
    else window.__stripeDouble.authenticate = value;
  }, authenticate ?? null);
}

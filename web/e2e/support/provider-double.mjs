// The payment provider's test double (tests/provider-double, the binary
// `ferroshop-provider-double`) for the browser tests of the method types the emulator
// does not cover: redirects, vouchers, wallets, bank debits and BLIK. It runs in front
// of the payment emulator (payment-emulator.mjs) as its upstream, so the shop and the
// browser talk to the double alone and cards still reach the emulator. Both are
// started once per test file, before the shops (so the shops can be pointed at the
// double), emptied between tests and stopped with the file.
//
//   PROVIDER_DOUBLE_BIN   the double's binary (default: <repo>/target/debug/ferroshop-provider-double;
//                         `cargo build -p ferroshop-provider-double` builds it)

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after } from 'node:test';
import { startPaymentEmulator, TEST_KEYS } from './payment-emulator.mjs';
import { checkPrerequisites, REPO_ROOT } from './server.mjs';

const STARTUP_TIMEOUT_MS = 20_000;

/** The double's binary, or an error saying how to build it. */
export function providerDoubleBinary() {
  const binary = path.resolve(process.cwd(), process.env.PROVIDER_DOUBLE_BIN || path.join(REPO_ROOT, 'target', 'debug', 'ferroshop-provider-double'));
  if (!existsSync(binary)) {
    throw new Error(`No provider double at ${binary}: run \`cargo build -p ferroshop-provider-double\` (or set PROVIDER_DOUBLE_BIN).`);
  }
  return binary;
}

/**
 * Starts the double in front of `upstream` (a loopback URL, the emulator); resolves
 * with its address, its control calls and `stop()`.
 */
export async function startProviderDouble({ upstream } = {}) {
  const binary = providerDoubleBinary();
  const args = ['--port', '0', '--exit-with-stdin'];
  if (upstream) args.push('--upstream', upstream);
  // --exit-with-stdin: the double ends with this process, however it ends.
  const child = spawn(binary, args, { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  const baseURL = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The provider double did not start within ${STARTUP_TIMEOUT_MS / 1000} s.\n${output}`)), STARTUP_TIMEOUT_MS);
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
      reject(new Error(`The provider double could not be started: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`The provider double exited early (code ${code}, signal ${signal}).\n${output}`));
    });
  });

  /** A call on the double; answers its JSON (or text), and fails with the answer unless it is 2xx. */
  const call = async (method, urlPath, { form, secret = false } = {}) => {
    const headers = {};
    if (form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    if (secret) headers.Authorization = `Bearer ${TEST_KEYS.secretKey}`;
    const res = await fetch(new URL(urlPath, baseURL), { method, headers, body: form ? new URLSearchParams(form) : undefined });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${urlPath} on the provider double answered ${res.status}: ${text.slice(0, 400)}`);
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  };
  const move = (kind, id, outcome, form) => call('POST', `/_double/${kind}/${encodeURIComponent(id)}/${outcome}`, { form: form ?? {} });

  return {
    baseURL,
    output: () => output,
    /** Forgets every object and event here and upstream (webhook registrations stay). */
    reset: () => call('DELETE', '/_config/data'),
    /** Sends the double's (and the upstream's) events to `url`, signed with `secret`. */
    registerWebhook: (name, url, secret) => call('POST', `/_config/webhooks/${encodeURIComponent(name)}`, { form: { url, secret } }),
    /** GET on the provider's API with the secret key (forwarded upstream for what the double does not own). */
    get: (urlPath) => call('GET', urlPath, { secret: true }),
    /** POST on the provider's API with the secret key. */
    post: (urlPath, form) => call('POST', urlPath, { form, secret: true }),
    /** The control calls: move a payment intent on as the shopper's side or the bank would. */
    succeed: (id) => move('payment_intents', id, 'succeed'),
    process: (id) => move('payment_intents', id, 'process'),
    fail: (id, fields) => move('payment_intents', id, 'fail', fields),
    expire: (id) => move('payment_intents', id, 'expire'),
    /** Every event the double sent, oldest first. */
    events: async () => (await call('GET', '/_double/events')).data,
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
 * Starts the emulator and the double in front of it for a test file, before the shops
 * (await it at the top of the file, then hand `env` to useShop: the shop's
 * FERROSHOP_STRIPE_* settings pointing at the double), and stops both when the file's
 * tests end. `connectShop(baseURL)` sends the events of both to that shop's webhook
 * endpoint (once per shop; registrations survive the resets). Each shop knows only
 * its own intents, so several shops can share the pair.
 */
export async function useProviderDouble({ webhookPath = '/?wc-api=wc_stripe' } = {}) {
  // Without the server binary or the built storefront the file fails at once, saying what to do.
  checkPrerequisites();
  providerDoubleBinary();
  const emulator = await startPaymentEmulator();
  let double;
  try {
    double = await startProviderDouble({ upstream: emulator.baseURL });
  } catch (error) {
    await emulator.stop();
    throw error;
  }
  after(async () => {
    await double.stop();
    await emulator.stop();
  });
  const connected = new Set();
  return {
    emulator,
    current: double,
    env: {
      FERROSHOP_STRIPE_PUBLISHABLE_KEY: TEST_KEYS.publishableKey,
      FERROSHOP_STRIPE_SECRET_KEY: TEST_KEYS.secretKey,
      FERROSHOP_STRIPE_WEBHOOK_SECRET: TEST_KEYS.webhookSecret,
      FERROSHOP_STRIPE_API_BASE: double.baseURL,
    },
    async connectShop(shopBaseURL) {
      if (connected.has(shopBaseURL)) return;
      await double.registerWebhook(`shop-${new URL(shopBaseURL).port}`, new URL(webhookPath, shopBaseURL).href, TEST_KEYS.webhookSecret);
      connected.add(shopBaseURL);
    },
  };
}

// A test double of the payment provider's Stripe.js for the browser tests, added with
// page.addInitScript before the storefront's bundle runs: `loadStripe` takes a
// `window.Stripe` that already exists, so the storefront runs against this instead of
// the provider's script. It covers what the storefront uses: `elements()` with
// `update`/`submit`/`create('payment')` (an element of real, labelled inputs for the
// method type the group is kept to, `paymentMethodTypes[0]`: card number, expiry and
// security code; an IBAN for SEPA debits; a CPF / CNPJ for Boleto; a bank account's
// numbers for the other debits; a line saying how the payment goes on for the types
// without fields; and the type's terms or mandate as the `terms` option says, under
// the provider's keys for it: `card`, `sepaDebit`…), `createPaymentMethod` (of that
// type), `handleNextAction`,
// `confirmPayment`, `confirmSetup`, `retrievePaymentIntent`, `retrieveSetupIntent`,
// the voucher confirmations (`confirmBoletoPayment`, `confirmOxxoPayment`,
// `confirmMultibancoPayment`) and the wallets' (`confirmWechatPayPayment`,
// `confirmCashappPayment`, `confirmCashappSetup`).
//
// It talks to the payment emulator's REST API (see payment-emulator.mjs) as the real
// script talks to the provider, and to the provider's test double
// (tests/provider-double/README.md) for the other method types: it reads and confirms
// those intents with the publishable key and the client secret, and moves them on
// with the double's control calls when the shopper answers one of its dialogs. The
// test gives it, before the bundle runs:
//
//   window.__stripeDouble = {
//     apiBase: '/__payment-emulator',      // the emulator: its address, or a path of the
//                                          //   page's origin the test routes to it (the
//                                          //   shop's CSP lets the page reach only itself)
//     secretKey: 'sk_test_…',              // creating payment methods needs it there
//     authenticate: true | false,          // answers 3-D Secure at once; unset: a challenge
//                                          //   dialog with "Complete authentication" and
//                                          //   "Fail authentication" waits for a click
//     failToLoad: true,                    // the element emits `loaderror` instead of `ready`
//     voucher: 'close',                    // closes a voucher at once; unset: the voucher
//                                          //   dialog waits for "Close"
//     wallet: 'authorize' | 'fail' | 'close', // answers a wallet's dialog at once; unset:
//                                          //   "Authorize test payment", "Fail test
//                                          //   payment" and "Close" wait for a click
//     blik: 'approve' | 'decline',         // answers BLIK at once; unset: "Approve" and
//                                          //   "Decline" wait for a click
//   }
//
// handleNextAction follows the intent's next action: `redirect_to_url` and
// `alipay_handle_redirect` navigate to the action's URL (the promise never settles, as
// the page is left); `blik_authorize` opens the BLIK dialog; `verify_with_microdeposits`
// resolves with the intent as it is; anything else is 3-D Secure.
//
// The dialogs (each role=dialog, aria-modal, labelled by its title, the first button
// focused; Escape closes a voucher or a wallet's dialog) and their test ids:
//   three-d-secure-challenge   "Complete authentication", "Fail authentication"
//   payment-voucher            the voucher's number (or entity and reference), amount,
//                              expiry and link; "Close" (payment-voucher-close)
//   wallet-authorization       a QR code placeholder (wallet-qr-code); "Authorize test
//                              payment" (wallet-authorize), "Fail test payment"
//                              (wallet-fail), "Close" (wallet-close)
//   blik-authorization         "Approve the payment in your banking app"; "Approve"
//                              (blik-approve), "Decline" (blik-decline)
//
// Every call is recorded in window.__stripeDouble.calls ({name, detail}).
(() => {
  'use strict';

  const READY_DELAY_MS = 150;
  const AUTH_FAILED = 'We are unable to authenticate your payment method. Please choose a different payment method and try again.';
  const state = () => {
    const config = (window.__stripeDouble ??= {});
    config.calls ??= [];
    return config;
  };
  const record = (name, detail = {}) => state().calls.push({ name, detail });

  // ---- The emulator's REST API ------------------------------------------------------

  /** `{a: {b: 1}}` → `a[b]=1`, as the provider's API takes form fields. */
  function flatten(value, prefix, pairs) {
    if (value === undefined || value === null) return pairs;
    if (typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}[${key}]` : key, pairs);
      return pairs;
    }
    pairs.append(prefix, String(value));
    return pairs;
  }

  /** An error as Stripe.js hands it back: `{type, code, message, …}`. */
  function providerError(body, status) {
    const error = body?.error ?? {};
    return {
      type: error.type ?? (status === 402 ? 'card_error' : 'invalid_request_error'),
      code: error.code,
      decline_code: error.decline_code,
      param: error.param,
      message: error.message ?? 'An error occurred with the payment provider.',
    };
  }

  /**
   * A call to the emulator. `auth: 'secret'` sends the secret key (Authorization
   * header); `auth: 'publishable'` the publishable key in the form, as the provider's
   * script does for the calls it may make on its own.
   */
  async function api(method, path, { params, query, auth = 'secret', publishableKey } = {}) {
    const { apiBase, secretKey } = state();
    if (!apiBase) throw { type: 'api_connection_error', message: 'The test double has no apiBase (window.__stripeDouble).' };
    const url = new URL(`${apiBase.replace(/\/$/, '')}${path}`, window.location.href);
    const headers = { Accept: 'application/json' };
    let body;
    const fields = { ...(params ?? {}) };
    const search = { ...(query ?? {}) };
    if (auth === 'secret') headers.Authorization = `Bearer ${secretKey}`;
    else if (method === 'GET') search.key = publishableKey;
    else fields.key = publishableKey;
    if (Object.keys(search).length > 0) url.search = flatten(search, '', new URLSearchParams()).toString();
    if (method !== 'GET') {
      body = flatten(fields, '', new URLSearchParams());
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    let response;
    try {
      response = await fetch(url, { method, headers, body, mode: 'cors', credentials: 'omit' });
    } catch (cause) {
      throw { type: 'api_connection_error', message: `The payment emulator could not be reached: ${cause?.message ?? cause}` };
    }
    const json = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = providerError(json, response.status);
      // Kept out of what the storefront reads (not enumerable): which reads to try again.
      Object.defineProperty(error, 'httpStatus', { value: response.status });
      throw error;
    }
    return json;
  }

  /**
   * Reads an intent as the provider's script does: with the publishable key and its
   * client secret. The card emulator reads intents with the secret key only (401
   * otherwise): read there with that.
   */
  async function readIntent(kind, clientSecret, publishableKey) {
    const path = `/v1/${kind}/${intentIdOf(clientSecret)}`;
    try {
      return await api('GET', path, { query: { client_secret: clientSecret }, auth: 'publishable', publishableKey });
    } catch (error) {
      if (error?.httpStatus === 401) return api('GET', path);
      throw error;
    }
  }

  /**
   * Confirms an intent that waits for it (publishable key and client secret): one
   * that asks for confirmation, or one with a payment method and no failed attempt.
   */
  async function confirmIfWaiting(kind, intent, clientSecret, publishableKey, params = {}) {
    const hasMethod = Boolean(params.payment_method || intent.payment_method);
    const waiting = intent.status === 'requires_confirmation' || (intent.status === 'requires_payment_method' && hasMethod && !intent.last_payment_error && !intent.last_setup_error);
    if (!waiting) return intent;
    return api('POST', `/v1/${kind}/${intent.id}/confirm`, { params: { client_secret: clientSecret, ...params }, auth: 'publishable', publishableKey });
  }

  /** A failed attempt as the provider's script answers it: `{error}` naming the intent. */
  function failureOf(intent, key) {
    const lastError = intent.last_payment_error ?? intent.last_setup_error;
    if (!lastError || intent.status !== 'requires_payment_method') return null;
    return { error: { ...lastError, type: lastError.type ?? 'card_error', message: lastError.message ?? 'The payment failed.', [key]: intent } };
  }

  const intentIdOf = (clientSecret) => String(clientSecret).split('_secret_')[0];

  // ---- Dialogs ------------------------------------------------------------------------

  let dialogCount = 0;

  /** An element with inline styles (the page's CSS is not the double's). */
  function element(tag, style, text) {
    const node = document.createElement(tag);
    if (style) node.style.cssText = style;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /**
   * A modal dialog over the page, as the provider's own: a title that labels it, a
   * text that describes it, more content, and buttons. Resolves with the value of the
   * button clicked (or `escape`'s value on Escape, when it has one). The first button
   * has the focus; the focus goes back where it was once the dialog closes.
   */
  function openDialog({ testId, title, text, content = [], buttons, escape }) {
    return new Promise((resolve) => {
      dialogCount += 1;
      const titleId = `stripe-double-dialog-${dialogCount}-title`;
      const textId = `stripe-double-dialog-${dialogCount}-text`;
      const before = document.activeElement;
      const overlay = element('div', 'position:fixed;inset:0;z-index:2147483647;display:grid;place-items:center;padding:16px;background:rgba(0,0,0,0.55)');
      overlay.setAttribute('data-testid', testId);
      const dialog = element('div', 'box-sizing:border-box;max-width:22rem;max-height:calc(100vh - 32px);overflow:auto;padding:24px;border-radius:8px;background:#ffffff;color:#1c1b1a;font:16px/1.5 system-ui,sans-serif;box-shadow:0 12px 40px rgba(0,0,0,0.35)');
      dialog.setAttribute('role', 'dialog');
      dialog.setAttribute('aria-modal', 'true');
      dialog.setAttribute('aria-labelledby', titleId);
      dialog.setAttribute('aria-describedby', textId);
      const heading = element('h2', 'margin:0 0 8px;font-size:20px', title);
      heading.id = titleId;
      const description = element('p', 'margin:0 0 16px', text);
      description.id = textId;
      const actions = element('div', 'display:flex;flex-wrap:wrap;gap:8px');
      const finish = (value) => {
        overlay.remove();
        document.removeEventListener('keydown', onKey, true);
        if (before && typeof before.focus === 'function' && before.isConnected) before.focus();
        resolve(value);
      };
      const onKey = (event) => {
        if (event.key === 'Escape' && escape !== undefined) {
          event.preventDefault();
          finish(escape);
        }
      };
      const made = buttons.map(({ label, value, background, testId: buttonTestId }) => {
        const button = element('button', `min-height:44px;padding:0 16px;border:0;border-radius:6px;background:${background};color:#ffffff;font:inherit;font-weight:600;cursor:pointer`, label);
        button.type = 'button';
        if (buttonTestId) button.setAttribute('data-testid', buttonTestId);
        button.addEventListener('click', () => finish(value));
        return button;
      });
      actions.append(...made);
      dialog.append(heading, description, ...content, actions);
      overlay.append(dialog);
      document.body.append(overlay);
      document.addEventListener('keydown', onKey, true);
      made[0]?.focus();
    });
  }

  /** `element` under another name, for the Payment Element's code (where `element` is the element itself). */
  const styledElement = element;

  const GREEN = '#1f5f2e';
  const RED = '#9b2318';
  const GREY = '#4a4640';

  /** Minor units as the shopper reads them (`1234, 'brl'` → `R$12.34`). */
  function money(amount, currency) {
    if (typeof amount !== 'number' || !currency) return '';
    try {
      const format = new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() });
      return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
    } catch {
      return `${amount} ${currency.toUpperCase()}`;
    }
  }

  /** A list of label and value rows (`<dl>`), leaving out the empty ones. */
  function detailsList(rows) {
    const list = element('dl', 'display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:0 0 16px');
    for (const [label, value] of rows) {
      if (value === undefined || value === null || value === '') continue;
      list.append(element('dt', 'font-weight:600', label), element('dd', 'margin:0;overflow-wrap:anywhere', String(value)));
    }
    return list;
  }

  // ---- 3-D Secure -------------------------------------------------------------------

  /** Resolves true to pass the challenge, false to fail it. */
  async function challenge(kind) {
    const preset = state().authenticate;
    record('challenge', { kind, preset });
    if (typeof preset === 'boolean') return preset;
    const passed = await openDialog({
      testId: 'three-d-secure-challenge',
      title: '3D Secure authentication',
      text: 'Your bank asks you to confirm this payment. This is a test: complete or fail the authentication.',
      buttons: [
        { label: 'Complete authentication', value: true, background: GREEN },
        { label: 'Fail authentication', value: false, background: RED },
      ],
    });
    record('challenge-answered', { kind, passed });
    return passed;
  }

  async function authenticatePaymentIntent(clientSecret, publishableKey) {
    const id = intentIdOf(clientSecret);
    let intent = await api('GET', `/v1/payment_intents/${id}`);
    if (intent.status === 'requires_action') {
      const passed = await challenge('payment_intent');
      intent = await api('POST', `/v1/payment_intents/${id}/_authenticate`, {
        query: { success: passed ? 'true' : 'false' },
        params: { client_secret: clientSecret },
        auth: 'publishable',
        publishableKey,
      });
      if (!passed) {
        return { error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure', message: AUTH_FAILED, payment_intent: intent } };
      }
    }
    if (intent.last_payment_error && intent.status === 'requires_payment_method') {
      return { error: { ...intent.last_payment_error, type: intent.last_payment_error.type ?? 'card_error', payment_intent: intent } };
    }
    return { paymentIntent: intent };
  }

  async function authenticateSetupIntent(clientSecret, publishableKey, paymentMethod) {
    const id = intentIdOf(clientSecret);
    let intent = await api('GET', `/v1/setup_intents/${id}`);
    const confirm = (extra = {}) =>
      api('POST', `/v1/setup_intents/${id}/confirm`, { params: { client_secret: clientSecret, ...extra }, auth: 'publishable', publishableKey });
    if (paymentMethod && ['requires_payment_method', 'requires_confirmation'].includes(intent.status)) {
      intent = await confirm({ payment_method: paymentMethod });
    } else if (intent.status === 'requires_confirmation') {
      intent = await confirm();
    }
    if (intent.status === 'requires_action') {
      const passed = await challenge('setup_intent');
      if (!passed) {
        intent = await api('POST', `/v1/setup_intents/${id}/cancel`, { params: { client_secret: clientSecret }, auth: 'publishable', publishableKey });
        return { error: { type: 'invalid_request_error', code: 'setup_intent_authentication_failure', message: AUTH_FAILED, setup_intent: intent } };
      }
      // The emulator finishes a setup that needed the shopper with a second confirmation.
      intent = await confirm();
    }
    return { setupIntent: intent };
  }

  // ---- Next actions of the other method types --------------------------------------------

  /** A redirect method: the browser goes to the provider's page; the page is left, nothing settles. */
  function followRedirect(type, url) {
    record('redirect', { type, url });
    window.location.assign(url);
    return new Promise(() => {});
  }

  /** Moves an intent of the provider's double on, as the shopper's side would. */
  function moveIntent(kind, id, outcome) {
    return api('POST', `/_double/${kind}/${encodeURIComponent(id)}/${outcome}`, {});
  }

  /** BLIK: the shopper approves (or declines) the payment in the bank's app. */
  async function authorizeBlik(intent, clientSecret, publishableKey) {
    const preset = state().blik;
    record('blik', { id: intent.id, preset });
    const approved =
      preset === 'approve' || preset === 'decline'
        ? preset === 'approve'
        : await openDialog({
            testId: 'blik-authorization',
            title: 'Approve the payment in your banking app',
            text: `Your bank's app asks you to approve this BLIK payment${intent.amount ? ` of ${money(intent.amount, intent.currency)}` : ''}. This is a test: approve or decline it.`,
            buttons: [
              { label: 'Approve', value: true, background: GREEN, testId: 'blik-approve' },
              { label: 'Decline', value: false, background: RED, testId: 'blik-decline' },
            ],
          });
    record('blik-answered', { id: intent.id, approved });
    await moveIntent('payment_intents', intent.id, approved ? 'succeed' : 'fail');
    const moved = await readIntent('payment_intents', clientSecret, publishableKey);
    return failureOf(moved, 'payment_intent') ?? { paymentIntent: moved };
  }

  const VOUCHERS = {
    boleto: { name: 'confirmBoletoPayment', title: 'Boleto voucher' },
    oxxo: { name: 'confirmOxxoPayment', title: 'OXXO voucher' },
    multibanco: { name: 'confirmMultibancoPayment', title: 'Multibanco payment details' },
  };

  /** When a voucher expires, from `expires_at` (seconds) or `expires_after`. */
  function voucherExpiry(details) {
    const seconds = details.expires_at ?? details.expires_after;
    return typeof seconds === 'number' ? new Date(seconds * 1000).toLocaleString() : '';
  }

  /** Shows the voucher the intent carries; resolves once the shopper closes it. */
  async function showVoucher(method, intent) {
    const details = intent.next_action?.[`${method}_display_details`] ?? {};
    const preset = state().voucher;
    record('voucher', { method, id: intent.id, details, preset });
    if (preset === 'close') return;
    const rows =
      method === 'multibanco'
        ? [
            ['Entity', details.entity],
            ['Reference', details.reference],
          ]
        : [['Voucher number', details.number]];
    rows.push(['Amount', money(intent.amount, intent.currency)], ['Pay by', voucherExpiry(details)]);
    const content = [detailsList(rows)];
    if (details.hosted_voucher_url) {
      const link = element('a', 'display:inline-block;margin:0 0 16px;color:#1f4f8f', 'Open the voucher');
      link.href = details.hosted_voucher_url;
      link.target = '_blank';
      link.rel = 'noopener';
      content.push(link);
    }
    await openDialog({
      testId: 'payment-voucher',
      title: VOUCHERS[method].title,
      text: 'Pay this voucher before it expires: the order is paid once the payment reaches the shop. This is a test voucher.',
      content,
      buttons: [{ label: 'Close', value: 'close', background: GREY, testId: 'payment-voucher-close' }],
      escape: 'close',
    });
    record('voucher-closed', { method, id: intent.id });
  }

  /** The confirmation's own data as intent fields: an existing method's id, its options, a return URL. */
  async function confirmParams(type, data, publishableKey) {
    const params = {};
    if (!data || typeof data !== 'object') return params;
    if (typeof data.payment_method === 'string') params.payment_method = data.payment_method;
    else if (data.payment_method && typeof data.payment_method === 'object') {
      const { billing_details: billingDetails, ...details } = data.payment_method;
      const created = await api('POST', '/v1/payment_methods', {
        params: { type, billing_details: billingDetails, ...(Object.keys(details).length > 0 ? { [type]: details[type] ?? details } : {}) },
        auth: 'publishable',
        publishableKey,
      });
      params.payment_method = created.id;
    }
    if (data.payment_method_options) params.payment_method_options = data.payment_method_options;
    if (data.return_url) params.return_url = data.return_url;
    return params;
  }

  /** boleto, oxxo, multibanco: confirm if waiting, show the voucher, answer the intent as it then is. */
  async function confirmVoucher(method, clientSecret, data, publishableKey) {
    record(VOUCHERS[method].name, { clientSecret, data });
    try {
      let intent = await readIntent('payment_intents', clientSecret, publishableKey);
      intent = await confirmIfWaiting('payment_intents', intent, clientSecret, publishableKey, await confirmParams(method, data, publishableKey));
      const failed = failureOf(intent, 'payment_intent');
      if (failed) return failed;
      if (intent.status === 'requires_action' && intent.next_action?.type === `${method}_display_details`) {
        await showVoucher(method, intent);
        intent = await readIntent('payment_intents', clientSecret, publishableKey);
      }
      return { paymentIntent: intent };
    } catch (error) {
      return { error };
    }
  }

  const WALLETS = {
    wechat_pay: { title: 'WeChat Pay', action: 'wechat_pay_display_qr_code' },
    cashapp: { title: 'Cash App Pay', action: 'cashapp_handle_redirect_or_display_qr_code' },
  };

  /** A QR code's place: the double draws no code, only a square where the provider's would be. */
  function qrPlaceholder(data) {
    const box = element('div', 'display:grid;place-items:center;width:160px;height:160px;margin:0 auto 16px;border:8px solid #1c1b1a;background:repeating-conic-gradient(#1c1b1a 0% 25%, #ffffff 0% 50%) 0 0 / 32px 32px');
    box.setAttribute('role', 'img');
    box.setAttribute('aria-label', 'QR code to scan with the app (a test placeholder)');
    box.setAttribute('data-testid', 'wallet-qr-code');
    if (data) box.setAttribute('data-qr', String(data));
    box.append(element('span', 'padding:4px 8px;background:#ffffff;font-size:12px;font-weight:600', 'TEST'));
    return box;
  }

  /** The wallet's dialog: the shopper authorizes or fails the payment, or closes it. */
  async function walletDialog(wallet, intent, kind) {
    const preset = state().wallet;
    record('wallet', { wallet, id: intent.id, preset });
    if (preset === 'authorize' || preset === 'fail' || preset === 'close') return preset;
    const action = intent.next_action?.[WALLETS[wallet].action] ?? {};
    const qr = action.qr_code?.data ?? action.data ?? action.image_data_url ?? '';
    const what = kind === 'setup_intents' ? 'approve future payments' : `pay${intent.amount ? ` ${money(intent.amount, intent.currency)}` : ''}`;
    const answer = await openDialog({
      testId: 'wallet-authorization',
      title: WALLETS[wallet].title,
      text: `Scan the code with the app to ${what}. This is a test: authorize or fail the payment, or close this without paying.`,
      content: [qrPlaceholder(qr)],
      buttons: [
        { label: 'Authorize test payment', value: 'authorize', background: GREEN, testId: 'wallet-authorize' },
        { label: 'Fail test payment', value: 'fail', background: RED, testId: 'wallet-fail' },
        { label: 'Close', value: 'close', background: GREY, testId: 'wallet-close' },
      ],
      escape: 'close',
    });
    record('wallet-answered', { wallet, id: intent.id, answer });
    return answer;
  }

  /**
   * wechat_pay, cashapp: confirm if waiting, the wallet's dialog, then the intent as it
   * is (a failed payment carries its `last_payment_error`; a closed dialog leaves it
   * `requires_action`).
   */
  async function confirmWallet(name, wallet, kind, clientSecret, data, publishableKey) {
    record(name, { clientSecret, data });
    const key = kind === 'setup_intents' ? 'setupIntent' : 'paymentIntent';
    try {
      let intent = await readIntent(kind, clientSecret, publishableKey);
      intent = await confirmIfWaiting(kind, intent, clientSecret, publishableKey, await confirmParams(wallet, data, publishableKey));
      if (intent.status === 'requires_action' && intent.next_action?.type === WALLETS[wallet].action) {
        const answer = await walletDialog(wallet, intent, kind);
        if (answer !== 'close') await moveIntent(kind, intent.id, answer === 'authorize' ? 'succeed' : 'fail');
        intent = await readIntent(kind, clientSecret, publishableKey);
      }
      return { [key]: intent };
    } catch (error) {
      return { error };
    }
  }

  // ---- The Payment Element ------------------------------------------------------------

  let elementCount = 0;

  function luhn(number) {
    let sum = 0;
    [...number].reverse().forEach((digit, index) => {
      let value = Number(digit);
      if (index % 2 === 1) value = value * 2 > 9 ? value * 2 - 9 : value * 2;
      sum += value;
    });
    return sum % 10 === 0;
  }

  /**
   * What the element asks for, by method type: its fields (each read into the payment
   * method's `[type]` details under `param`), the provider's key for it in the
   * element's `terms` option, and its terms text. A type without fields shows a line
   * saying how the payment goes on, as the provider's element does.
   */
  const ELEMENT_TYPES = {
    card: {
      fields: [
        { name: 'number', label: 'Card number', wide: true, attributes: { inputMode: 'numeric', autocomplete: 'cc-number', placeholder: '1234 1234 1234 1234', maxLength: 19 } },
        { name: 'expiry', label: 'Expiration date', attributes: { inputMode: 'numeric', autocomplete: 'cc-exp', placeholder: 'MM / YY', maxLength: 7 } },
        { name: 'cvc', label: 'Security code', attributes: { inputMode: 'numeric', autocomplete: 'cc-csc', placeholder: 'CVC', maxLength: 4 } },
      ],
      termsKey: 'card',
      // Shown only when asked for (a card kept for later).
      termsByDefault: false,
      terms: 'By providing your card information, you allow the shop to charge your card for future payments in accordance with their terms.',
    },
    sepa_debit: {
      fields: [{ name: 'iban', param: 'iban', label: 'IBAN', wide: true, attributes: { autocomplete: 'off', placeholder: 'DE00 0000 0000 0000 0000 00', maxLength: 42, spellcheck: false } }],
      termsKey: 'sepaDebit',
      // The mandate the shopper agrees to: shown unless the shop says it shows it itself.
      termsByDefault: true,
      terms:
        'By providing your payment information and confirming this payment, you authorise (A) the shop and our payment service provider to send instructions to your bank to debit your account and (B) your bank to debit your account in accordance with those instructions. As part of your rights, you are entitled to a refund from your bank under the terms and conditions of your agreement with your bank. A refund must be claimed within 8 weeks starting from the date on which your account was debited.',
    },
    boleto: {
      fields: [{ name: 'tax_id', param: 'tax_id', label: 'CPF / CNPJ', wide: true, attributes: { inputMode: 'numeric', autocomplete: 'off', maxLength: 18 } }],
    },
    au_becs_debit: {
      fields: [
        { name: 'bsb_number', param: 'bsb_number', label: 'BSB', attributes: { inputMode: 'numeric', maxLength: 7 } },
        { name: 'account_number', param: 'account_number', label: 'Account number', attributes: { inputMode: 'numeric', maxLength: 9 } },
      ],
      termsKey: 'auBecsDebit',
      termsByDefault: true,
      terms: 'By providing your bank account details, you agree to this Direct Debit Request and the Direct Debit Request service agreement.',
    },
    bacs_debit: {
      fields: [
        { name: 'sort_code', param: 'sort_code', label: 'Sort code', attributes: { inputMode: 'numeric', maxLength: 8 } },
        { name: 'account_number', param: 'account_number', label: 'Account number', attributes: { inputMode: 'numeric', maxLength: 8 } },
      ],
    },
    us_bank_account: {
      fields: [
        { name: 'routing_number', param: 'routing_number', label: 'Routing number', attributes: { inputMode: 'numeric', maxLength: 9 } },
        { name: 'account_number', param: 'account_number', label: 'Account number', attributes: { inputMode: 'numeric', maxLength: 17 } },
      ],
      termsKey: 'usBankAccount',
      termsByDefault: true,
      terms: 'By providing your bank account details, you authorise the shop to debit your account for this payment.',
    },
    acss_debit: {
      fields: [
        { name: 'transit_number', param: 'transit_number', label: 'Transit number', attributes: { inputMode: 'numeric', maxLength: 5 } },
        { name: 'institution_number', param: 'institution_number', label: 'Institution number', attributes: { inputMode: 'numeric', maxLength: 3 } },
        { name: 'account_number', param: 'account_number', label: 'Account number', wide: true, attributes: { inputMode: 'numeric', maxLength: 12 } },
      ],
    },
    ideal: { termsKey: 'ideal', termsByDefault: false, terms: 'By continuing, you authorise the shop to debit your account for future payments.' },
    bancontact: { termsKey: 'bancontact', termsByDefault: false, terms: 'By continuing, you authorise the shop to debit your account for future payments.' },
    sofort: { termsKey: 'sofort', termsByDefault: false, terms: 'By continuing, you authorise the shop to debit your account for future payments.' },
    cashapp: { termsKey: 'cashapp', termsByDefault: false, terms: 'By continuing, you allow the shop to charge your Cash App account for future payments.' },
  };
  /** The keys the provider's element takes in its `terms` option; any other is ignored with a warning, as there. */
  const TERMS_KEYS = new Set(['applePay', 'auBecsDebit', 'bancontact', 'card', 'cashapp', 'googlePay', 'ideal', 'klarna', 'paypal', 'sepaDebit', 'sofort', 'usBankAccount']);
  const REDIRECT_NOTE = 'After you place the order, you will be taken to complete the payment securely.';
  const IN_PAGE_NOTE = {
    blik: 'After you place the order, approve the payment in your banking app.',
    boleto: 'After you place the order, you will get a Boleto voucher to pay.',
    oxxo: 'After you place the order, you will get an OXXO voucher to pay at a store.',
    multibanco: 'After you place the order, you will get the Multibanco reference to pay with.',
    wechat_pay: 'After you place the order, scan the QR code with WeChat to pay.',
    cashapp: 'After you place the order, scan the QR code with Cash App to pay.',
  };

  function createPaymentElement(group, options, methodType) {
    elementCount += 1;
    const prefix = `stripe-double-${elementCount}`;
    const spec = ELEMENT_TYPES[methodType] ?? {};
    const fields = spec.fields ?? [];
    const handlers = new Map();
    let node = null;
    let inputs = null;
    let terms = null;

    const emit = (type, event) => [...(handlers.get(type) ?? [])].forEach((handler) => handler(event));
    const raw = (name) => inputs?.[name]?.value ?? '';
    const digits = (name) => raw(name).replace(/\D/g, '');
    const changed = () => {
      const empty = fields.every((f) => raw(f.name).trim() === '');
      const complete =
        methodType === 'card'
          ? digits('number').length === 16 && digits('expiry').length === 4 && digits('cvc').length >= 3
          : fields.every((f) => raw(f.name).trim() !== '');
      emit('change', { elementType: 'payment', empty, complete, collapsed: false, value: { type: methodType } });
    };

    function field({ name, label, wide, attributes }) {
      const wrapper = document.createElement('div');
      wrapper.style.cssText = `display:flex;flex-direction:column;gap:4px;min-width:0;${wide ? 'grid-column:1 / -1' : ''}`;
      const labelElement = document.createElement('label');
      labelElement.htmlFor = `${prefix}-${name}`;
      labelElement.textContent = label;
      labelElement.style.cssText = 'font-size:14px;font-weight:600;color:#1c1b1a';
      const input = document.createElement('input');
      input.id = `${prefix}-${name}`;
      input.type = 'text';
      Object.assign(input, attributes);
      input.style.cssText = 'box-sizing:border-box;width:100%;min-height:44px;padding:8px 12px;border:1px solid #8f8982;border-radius:6px;background:#ffffff;color:#1c1b1a;font:16px system-ui,sans-serif';
      input.addEventListener('input', changed);
      wrapper.append(labelElement, input);
      return { wrapper, input };
    }

    /** The terms (a mandate) as the element's `terms` option says: `always`, `never`, or the type's default. */
    function renderTerms() {
      if (!terms) return;
      const asked = options.terms ?? {};
      const unknown = Object.keys(asked).filter((key) => !TERMS_KEYS.has(key));
      if (unknown.length > 0) record('element.unrecognized-terms', { keys: unknown });
      const setting = spec.termsKey ? asked[spec.termsKey] : undefined;
      const shown = Boolean(spec.terms) && (setting === 'always' || (setting !== 'never' && spec.termsByDefault === true));
      terms.hidden = !shown;
      terms.textContent = shown ? spec.terms : '';
    }

    const element = {
      methodType,
      mount(target) {
        node = typeof target === 'string' ? document.querySelector(target) : target;
        record('element.mount', { options, methodType });
        if (state().failToLoad) {
          setTimeout(() => emit('loaderror', { elementType: 'payment', error: { type: 'api_error', message: 'The payment form could not be loaded.' } }), READY_DELAY_MS);
          return;
        }
        const form = document.createElement('div');
        form.setAttribute('data-testid', 'payment-element');
        form.setAttribute('data-method-type', methodType);
        form.style.cssText = 'display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:12px';
        const made = fields.map(field);
        inputs = Object.fromEntries(fields.map((f, index) => [f.name, made[index].input]));
        form.append(...made.map((m) => m.wrapper));
        if (fields.length === 0) {
          const note = styledElement('p', 'grid-column:1 / -1;margin:0;font-size:14px;color:#4a4640', IN_PAGE_NOTE[methodType] ?? REDIRECT_NOTE);
          note.setAttribute('data-testid', 'payment-element-note');
          form.append(note);
        }
        terms = document.createElement('p');
        terms.setAttribute('data-testid', 'payment-element-terms');
        terms.style.cssText = 'grid-column:1 / -1;margin:0;font-size:14px;color:#4a4640';
        renderTerms();
        form.append(terms);
        node.append(form);
        // As the provider's frame does, a moment after mounting.
        setTimeout(() => {
          emit('ready', { elementType: 'payment' });
          if (fields.length === 0) changed();
        }, READY_DELAY_MS);
      },
      unmount() {
        node?.replaceChildren();
        node = null;
        inputs = null;
        terms = null;
      },
      destroy() {
        record('element.destroy');
        element.unmount();
        group.element = null;
      },
      update(next) {
        record('element.update', next);
        Object.assign(options, next);
        renderTerms();
      },
      on(type, handler) {
        if (!handlers.has(type)) handlers.set(type, new Set());
        handlers.get(type).add(handler);
        return element;
      },
      off(type, handler) {
        if (handler) handlers.get(type)?.delete(handler);
        else handlers.delete(type);
        return element;
      },
      once(type, handler) {
        const wrapped = (event) => {
          element.off(type, wrapped);
          handler(event);
        };
        return element.on(type, wrapped);
      },
      focus() {
        inputs?.[fields[0]?.name]?.focus();
      },
      blur() {
        document.activeElement?.blur?.();
      },
      clear() {
        if (inputs) for (const input of Object.values(inputs)) input.value = '';
      },
      collapse() {},
      /** The card as the shopper typed it, checked as the provider's form checks it. */
      readCard() {
        if (!inputs) return { error: { type: 'validation_error', code: 'incomplete', message: 'The payment form is not ready.' } };
        const number = digits('number');
        const expiry = digits('expiry');
        const cvc = digits('cvc');
        if (number.length < 16) return { error: { type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' } };
        if (!luhn(number)) return { error: { type: 'validation_error', code: 'invalid_number', message: 'Your card number is invalid.' } };
        if (expiry.length < 4) return { error: { type: 'validation_error', code: 'incomplete_expiry', message: "Your card's expiration date is incomplete." } };
        const month = Number(expiry.slice(0, 2));
        const year = 2000 + Number(expiry.slice(2, 4));
        if (month < 1 || month > 12) return { error: { type: 'validation_error', code: 'invalid_expiry_month', message: "Your card's expiration date is invalid." } };
        const now = new Date();
        if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) {
          return { error: { type: 'validation_error', code: 'invalid_expiry_year_past', message: "Your card's expiration year is in the past." } };
        }
        if (cvc.length < 3) return { error: { type: 'validation_error', code: 'incomplete_cvc', message: "Your card's security code is incomplete." } };
        return { card: { number, exp_month: month, exp_year: year, cvc } };
      },
      /**
       * What the shopper entered, checked as the provider's form checks it:
       * `{type, details}` (the payment method's `[type]` fields), or `{error}`.
       */
      readDetails() {
        if (!inputs) return { error: { type: 'validation_error', code: 'incomplete', message: 'The payment form is not ready.' } };
        if (methodType === 'card') {
          const read = element.readCard();
          return read.error ? read : { type: 'card', details: read.card };
        }
        if (methodType === 'sepa_debit') {
          const iban = raw('iban').replace(/\s/g, '').toUpperCase();
          if (iban === '') return { error: { type: 'validation_error', code: 'incomplete_iban', message: 'Your IBAN is incomplete.' } };
          if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban)) return { error: { type: 'validation_error', code: 'invalid_iban', message: 'Your IBAN is invalid.' } };
          return { type: methodType, details: { iban } };
        }
        if (methodType === 'boleto') {
          const taxId = digits('tax_id');
          if (taxId.length !== 11 && taxId.length !== 14) return { error: { type: 'validation_error', code: 'incomplete_tax_id', message: 'Your CPF / CNPJ is incomplete.' } };
          return { type: methodType, details: { tax_id: taxId } };
        }
        const details = {};
        for (const f of fields) {
          const value = digits(f.name);
          if (value === '') return { error: { type: 'validation_error', code: `incomplete_${f.name}`, message: `Your ${f.label} is incomplete.` } };
          details[f.param] = value;
        }
        return { type: methodType, details: fields.length > 0 ? details : null };
      },
    };
    return element;
  }

  function createElements(stripe, options) {
    record('elements', { options });
    const group = {
      options: { ...(options ?? {}) },
      element: null,
      create(type, elementOptions) {
        if (type !== 'payment') throw new Error(`The test double has no "${type}" element.`);
        record('elements.create', { type, options: elementOptions });
        // The element's method type: the one the group is kept to (the gateway's), else a card.
        const methodType = String(group.options.paymentMethodTypes?.[0] ?? 'card');
        group.element = createPaymentElement(group, { ...(elementOptions ?? {}) }, methodType);
        return group.element;
      },
      getElement(type) {
        return type === 'payment' ? group.element : null;
      },
      update(next) {
        record('elements.update', next);
        Object.assign(group.options, next);
      },
      async submit() {
        record('elements.submit');
        if (!group.element) return { error: { type: 'validation_error', code: 'incomplete', message: 'The payment form is not ready.' } };
        const read = group.element.readDetails();
        return read.error ? { error: read.error } : {};
      },
      async fetchUpdates() {
        return {};
      },
    };
    return group;
  }

  // ---- Stripe() -----------------------------------------------------------------------

  function Stripe(publishableKey, constructorOptions = {}) {
    if (typeof publishableKey !== 'string' || !publishableKey.startsWith('pk_')) {
      throw new Error(`Invalid publishable key: ${publishableKey}`);
    }
    record('Stripe', { publishableKey, options: constructorOptions });
    const notSupported = (name) => async () => ({ error: { type: 'invalid_request_error', message: `${name} is not part of the test double.` } });

    const stripe = {
      elements: (options) => createElements(stripe, options),

      async createPaymentMethod(request) {
        const elements = request?.elements;
        record('createPaymentMethod', { params: request?.params });
        const read = elements?.element?.readDetails();
        if (!read) return { error: { type: 'invalid_request_error', message: 'createPaymentMethod needs the elements of a mounted Payment Element.' } };
        if (read.error) return { error: read.error };
        try {
          const params = { type: read.type, billing_details: request.params?.billing_details };
          if (read.details) params[read.type] = read.details;
          const paymentMethod = await api('POST', '/v1/payment_methods', { params });
          return { paymentMethod };
        } catch (error) {
          return { error };
        }
      },

      async handleNextAction({ clientSecret }) {
        record('handleNextAction', { clientSecret });
        try {
          const setup = String(clientSecret).startsWith('seti_');
          const intent = await readIntent(setup ? 'setup_intents' : 'payment_intents', clientSecret, publishableKey);
          const action = intent.status === 'requires_action' ? intent.next_action : null;
          switch (action?.type) {
            case 'redirect_to_url':
            case 'alipay_handle_redirect': {
              const url = action[action.type]?.url;
              if (!url) return { error: { type: 'invalid_request_error', message: `The ${action.type} action has no URL.` } };
              return await followRedirect(action.type, url);
            }
            case 'blik_authorize':
              return await authorizeBlik(intent, clientSecret, publishableKey);
            case 'verify_with_microdeposits':
              // The shopper verifies later, by e-mail: nothing to do in the page.
              record('microdeposits', { id: intent.id });
              return setup ? { setupIntent: intent } : { paymentIntent: intent };
            default:
              return setup ? await authenticateSetupIntent(clientSecret, publishableKey) : await authenticatePaymentIntent(clientSecret, publishableKey);
          }
        } catch (error) {
          return { error };
        }
      },

      confirmBoletoPayment: (clientSecret, data) => confirmVoucher('boleto', clientSecret, data, publishableKey),
      confirmOxxoPayment: (clientSecret, data) => confirmVoucher('oxxo', clientSecret, data, publishableKey),
      confirmMultibancoPayment: (clientSecret, data) => confirmVoucher('multibanco', clientSecret, data, publishableKey),
      confirmWechatPayPayment: (clientSecret, data) => confirmWallet('confirmWechatPayPayment', 'wechat_pay', 'payment_intents', clientSecret, data, publishableKey),
      confirmCashappPayment: (clientSecret, data) => confirmWallet('confirmCashappPayment', 'cashapp', 'payment_intents', clientSecret, data, publishableKey),
      confirmCashappSetup: (clientSecret, data) => confirmWallet('confirmCashappSetup', 'cashapp', 'setup_intents', clientSecret, data, publishableKey),

      async confirmPayment({ elements, clientSecret, confirmParams, redirect } = {}) {
        record('confirmPayment', { clientSecret, redirect });
        try {
          const id = intentIdOf(clientSecret);
          let intent = await api('GET', `/v1/payment_intents/${id}`);
          if (intent.status === 'requires_payment_method' && elements) {
            const created = await stripe.createPaymentMethod({ elements, params: confirmParams?.payment_method_data ?? {} });
            if (created.error) return { error: created.error };
            intent = await api('POST', `/v1/payment_intents/${id}`, { params: { payment_method: created.paymentMethod.id } });
          }
          if (['requires_payment_method', 'requires_confirmation'].includes(intent.status)) {
            intent = await api('POST', `/v1/payment_intents/${id}/confirm`, {});
          }
          const result = await authenticatePaymentIntent(clientSecret, publishableKey);
          if (!result.error && redirect !== 'if_required' && confirmParams?.return_url) window.location.assign(confirmParams.return_url);
          return result;
        } catch (error) {
          return { error };
        }
      },

      async confirmSetup({ elements, clientSecret, confirmParams, redirect } = {}) {
        record('confirmSetup', { clientSecret, redirect });
        try {
          let paymentMethod;
          if (elements) {
            const intent = await api('GET', `/v1/setup_intents/${intentIdOf(clientSecret)}`);
            if (intent.status === 'requires_payment_method') {
              const created = await stripe.createPaymentMethod({ elements, params: confirmParams?.payment_method_data ?? {} });
              if (created.error) return { error: created.error };
              paymentMethod = created.paymentMethod.id;
            }
          }
          const result = await authenticateSetupIntent(clientSecret, publishableKey, paymentMethod);
          if (!result.error && redirect !== 'if_required' && confirmParams?.return_url) window.location.assign(confirmParams.return_url);
          return result;
        } catch (error) {
          return { error };
        }
      },

      async retrievePaymentIntent(clientSecret) {
        record('retrievePaymentIntent', { clientSecret });
        try {
          return { paymentIntent: await api('GET', `/v1/payment_intents/${intentIdOf(clientSecret)}`) };
        } catch (error) {
          return { error };
        }
      },

      async retrieveSetupIntent(clientSecret) {
        record('retrieveSetupIntent', { clientSecret });
        try {
          return { setupIntent: await api('GET', `/v1/setup_intents/${intentIdOf(clientSecret)}`) };
        } catch (error) {
          return { error };
        }
      },

      // Present because React Stripe.js checks for them before it takes the object.
      createToken: notSupported('createToken'),
      confirmCardPayment: notSupported('confirmCardPayment'),
      registerAppInfo() {},
      _registerWrapper() {},
    };
    return stripe;
  }

  // The release the storefront's @stripe/stripe-js expects, so it loads the double quietly.
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();

// ---- Express Checkout Element ---------------------------------------------------------
//
// A separate block: it wraps the double above (window.Stripe) and adds what the
// express checkout uses: `elements().create('expressCheckout', options)`, an element
// that draws one real, labelled button, "Pay with test wallet" (test id
// `express-checkout-button`), and says on `ready` that Apple Pay can pay. A click on it
// plays the wallet's sheet as the provider's element does, waiting on the page's answer
// to each event:
//
//   click                  {expressPaymentType: 'apple_pay', resolve, reject} (answered
//                          within a second, or the sheet does not open)
//   shippingaddresschange  a fixed test address (US, CA, San Francisco, 94110), when the
//                          click's answer asks for a shipping address
//   shippingratechange     the first rate the page offered for it
//   confirm                {expressPaymentType: 'apple_pay', billingDetails, shippingAddress,
//                          shippingRate, paymentFailed}
//
// A rejected event closes the sheet (`cancel`). `createPaymentMethod({elements})` with
// this element makes a card payment method at the emulator, as the card element's does,
// with the wallet's billing details. Set before the page loads, in window.__stripeDouble:
//
//   expressCard: '4242424242424242'  // the wallet's card (the emulator's test cards)
//   expressSheet: 'cancel'           // the shopper closes the sheet instead of paying
//   expressWallets: false            // no wallet can pay here: `ready` says none
//
// Recorded in window.__stripeDouble.calls: express.mount, express.click (and
// express.click-resolved / -rejected with what the page answered), express.shipping-
// addresschange, express.shippingratechange (each with -resolved / -rejected),
// express.confirm, express.paymentFailed, express.cancel, express.update, express.destroy.
(() => {
  'use strict';

  const Base = window.Stripe;
  if (typeof Base !== 'function') return;

  const READY_DELAY_MS = 150;
  /** The provider gives the page a second to answer a click. */
  const CLICK_ANSWER_MS = 1000;
  /** The other events wait for the page's calls to the shop. */
  const EVENT_ANSWER_MS = 30_000;

  const state = () => {
    const config = (window.__stripeDouble ??= {});
    config.calls ??= [];
    return config;
  };
  const record = (name, detail = {}) => state().calls.push({ name, detail });

  const TEST_ADDRESS = { line1: '1 Main St', line2: null, city: 'San Francisco', state: 'CA', postal_code: '94110', country: 'US' };
  const TEST_NAME = 'Ada Lovelace';
  const TEST_BILLING = { name: TEST_NAME, email: 'ada.wallet@example.test', phone: '+1 555 010 0100', address: TEST_ADDRESS };

  /** Emits `type` to the page with `resolve` and `reject`; settles with the page's answer. */
  function ask(handlers, type, event, timeout) {
    return new Promise((settle) => {
      let done = false;
      const finish = (answer) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        record(`express.${type}-${answer.resolved ? 'resolved' : answer.timedOut ? 'timed-out' : 'rejected'}`, answer.details ?? {});
        settle(answer);
      };
      const timer = setTimeout(() => finish({ resolved: false, timedOut: true }), timeout);
      record(`express.${type}`, { ...event });
      const payload = { elementType: 'expressCheckout', ...event, resolve: (details = {}) => finish({ resolved: true, details }), reject: () => finish({ resolved: false }) };
      const listeners = [...(handlers.get(type) ?? [])];
      if (listeners.length === 0) finish({ resolved: true, details: {} });
      for (const handler of listeners) handler(payload);
    });
  }

  function createExpressElement(group, options) {
    const handlers = new Map();
    let node = null;
    let button = null;
    let billing = null;
    const emit = (type, event) => {
      for (const handler of [...(handlers.get(type) ?? [])]) handler({ elementType: 'expressCheckout', ...event });
    };

    /** The wallet's sheet, event by event. */
    async function playSheet() {
      const clicked = await ask(handlers, 'click', { expressPaymentType: 'apple_pay' }, CLICK_ANSWER_MS);
      if (!clicked.resolved) return;
      const sheet = { ...options, ...clicked.details };
      let rates = sheet.shippingRates ?? [];
      let shippingRate;
      let shippingAddress;
      const close = (why) => {
        record('express.cancel', { why });
        emit('cancel', {});
      };
      if (sheet.shippingAddressRequired) {
        const { line1: _line1, line2: _line2, ...partial } = TEST_ADDRESS;
        const changed = await ask(handlers, 'shippingaddresschange', { name: TEST_NAME, address: partial }, EVENT_ANSWER_MS);
        if (!changed.resolved) return close('the address was refused');
        rates = changed.details.shippingRates ?? rates;
        shippingRate = rates[0];
        if (shippingRate) {
          const picked = await ask(handlers, 'shippingratechange', { shippingRate }, EVENT_ANSWER_MS);
          if (!picked.resolved) return close('the rate was refused');
        }
        shippingAddress = { name: TEST_NAME, address: TEST_ADDRESS };
      }
      if (state().expressSheet === 'cancel') return close('the shopper closed the sheet');
      billing = TEST_BILLING;
      const confirmEvent = {
        expressPaymentType: 'apple_pay',
        billingDetails: TEST_BILLING,
        ...(shippingAddress ? { shippingAddress } : {}),
        ...(shippingRate ? { shippingRate } : {}),
        paymentFailed: (payload = {}) => record('express.paymentFailed', payload),
      };
      record('express.confirm', { expressPaymentType: 'apple_pay', billingDetails: TEST_BILLING, shippingAddress, shippingRate });
      emit('confirm', confirmEvent);
    }

    const element = {
      isExpressCheckout: true,
      mount(target) {
        node = typeof target === 'string' ? document.querySelector(target) : target;
        record('express.mount', { options });
        button = document.createElement('button');
        button.type = 'button';
        button.textContent = 'Pay with test wallet';
        button.setAttribute('data-testid', 'express-checkout-button');
        button.style.cssText = `box-sizing:border-box;display:block;width:100%;min-height:44px;height:${Number(options.buttonHeight) || 48}px;padding:0 16px;border:0;border-radius:4px;background:#000000;color:#ffffff;font:600 16px/1 system-ui,sans-serif;cursor:pointer`;
        button.addEventListener('click', () => {
          button.disabled = true;
          void playSheet().finally(() => {
            if (button) button.disabled = false;
          });
        });
        node.append(button);
        setTimeout(() => {
          const none = state().expressWallets === false;
          emit('ready', { availablePaymentMethods: none ? undefined : { applePay: true, googlePay: false, link: false, paypal: false, amazonPay: false, klarna: false } });
        }, READY_DELAY_MS);
      },
      unmount() {
        node?.replaceChildren();
        node = null;
        button = null;
      },
      destroy() {
        record('express.destroy');
        element.unmount();
        if (group.element === element) group.element = null;
      },
      update(next) {
        record('express.update', next);
        Object.assign(options, next);
      },
      on(type, handler) {
        if (!handlers.has(type)) handlers.set(type, new Set());
        handlers.get(type).add(handler);
        return element;
      },
      off(type, handler) {
        if (handler) handlers.get(type)?.delete(handler);
        else handlers.delete(type);
        return element;
      },
      once(type, handler) {
        const wrapped = (event) => {
          element.off(type, wrapped);
          handler(event);
        };
        return element.on(type, wrapped);
      },
      focus() {
        button?.focus();
      },
      blur() {
        button?.blur();
      },
      /** The wallet's card, as the group's `submit` and `createPaymentMethod` read an element. */
      readDetails() {
        const year = new Date().getFullYear() + 2;
        return { type: 'card', details: { number: state().expressCard ?? '4242424242424242', exp_month: 12, exp_year: year, cvc: '123' } };
      },
      /** The billing details the wallet handed over with its payment. */
      walletBilling() {
        return billing;
      },
    };
    return element;
  }

  function Stripe(publishableKey, constructorOptions) {
    const stripe = Base(publishableKey, constructorOptions);
    const makeElements = stripe.elements;
    stripe.elements = (options) => {
      const group = makeElements(options);
      const create = group.create;
      const getElement = group.getElement;
      group.create = (type, elementOptions) => {
        if (type !== 'expressCheckout') return create(type, elementOptions);
        record('elements.create', { type, options: elementOptions });
        group.element = createExpressElement(group, { ...(elementOptions ?? {}) });
        return group.element;
      };
      group.getElement = (type) => (type === 'expressCheckout' ? (group.element?.isExpressCheckout ? group.element : null) : getElement(type));
      return group;
    };
    const createPaymentMethod = stripe.createPaymentMethod;
    stripe.createPaymentMethod = (request) => {
      const express = request?.elements?.element;
      if (!express?.isExpressCheckout || request.params?.billing_details) return createPaymentMethod(request);
      const wallet = express.walletBilling();
      const billingDetails = wallet ? { name: wallet.name, email: wallet.email, phone: wallet.phone, address: { ...wallet.address, line2: wallet.address.line2 ?? '' } } : undefined;
      return createPaymentMethod({ ...request, params: { ...(request.params ?? {}), ...(billingDetails ? { billing_details: billingDetails } : {}) } });
    };
    return stripe;
  }

  Stripe.version = Base.version;
  window.Stripe = Stripe;
})();

// A test double of the payment provider's Stripe.js for the browser tests, added with
// page.addInitScript before the storefront's bundle runs: `loadStripe` takes a
// `window.Stripe` that already exists, so the storefront runs against this instead of
// the provider's script. It covers what the storefront uses: `elements()` with
// `update`/`submit`/`create('payment')` (an element of real, labelled inputs for the
// card number, expiry and security code), `createPaymentMethod`, `handleNextAction`,
// `confirmPayment`, `confirmSetup`, `retrievePaymentIntent`, `retrieveSetupIntent`.
//
// It talks to the payment emulator's REST API (see payment-emulator.mjs) as the real
// script talks to the provider. The test gives it, before the bundle runs:
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
//   }
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
    if (query) url.search = flatten(query, '', new URLSearchParams()).toString();
    const headers = { Accept: 'application/json' };
    let body;
    const fields = { ...(params ?? {}) };
    if (auth === 'secret') headers.Authorization = `Bearer ${secretKey}`;
    else fields.key = publishableKey;
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
    if (!response.ok) throw providerError(json, response.status);
    return json;
  }

  const intentIdOf = (clientSecret) => String(clientSecret).split('_secret_')[0];

  // ---- 3-D Secure -------------------------------------------------------------------

  let challengeCount = 0;

  /** Resolves true to pass the challenge, false to fail it. */
  function challenge(kind) {
    const preset = state().authenticate;
    record('challenge', { kind, preset });
    if (typeof preset === 'boolean') return Promise.resolve(preset);
    return new Promise((resolve) => {
      challengeCount += 1;
      const titleId = `stripe-double-challenge-${challengeCount}`;
      const overlay = document.createElement('div');
      overlay.setAttribute('data-testid', 'three-d-secure-challenge');
      overlay.style.cssText = 'position:fixed;inset:0;z-index:2147483647;display:grid;place-items:center;padding:16px;background:rgba(0,0,0,0.55)';
      const dialog = document.createElement('div');
      dialog.setAttribute('role', 'dialog');
      dialog.setAttribute('aria-modal', 'true');
      dialog.setAttribute('aria-labelledby', titleId);
      dialog.style.cssText = 'max-width:22rem;padding:24px;border-radius:8px;background:#ffffff;color:#1c1b1a;font:16px/1.5 system-ui,sans-serif;box-shadow:0 12px 40px rgba(0,0,0,0.35)';
      const title = document.createElement('h2');
      title.id = titleId;
      title.textContent = '3D Secure authentication';
      title.style.cssText = 'margin:0 0 8px;font-size:20px';
      const text = document.createElement('p');
      text.textContent = 'Your bank asks you to confirm this payment. This is a test: complete or fail the authentication.';
      text.style.cssText = 'margin:0 0 16px';
      const actions = document.createElement('div');
      actions.style.cssText = 'display:flex;flex-wrap:wrap;gap:8px';
      const button = (label, passed, background) => {
        const element = document.createElement('button');
        element.type = 'button';
        element.textContent = label;
        element.style.cssText = `min-height:44px;padding:0 16px;border:0;border-radius:6px;background:${background};color:#ffffff;font:inherit;font-weight:600;cursor:pointer`;
        element.addEventListener('click', () => {
          overlay.remove();
          record('challenge-answered', { kind, passed });
          resolve(passed);
        });
        return element;
      };
      const complete = button('Complete authentication', true, '#1f5f2e');
      actions.append(complete, button('Fail authentication', false, '#9b2318'));
      dialog.append(title, text, actions);
      overlay.append(dialog);
      document.body.append(overlay);
      complete.focus();
    });
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

  function createPaymentElement(group, options) {
    elementCount += 1;
    const prefix = `stripe-double-${elementCount}`;
    const handlers = new Map();
    let node = null;
    let inputs = null;
    let terms = null;

    const emit = (type, event) => [...(handlers.get(type) ?? [])].forEach((handler) => handler(event));
    const values = () => ({
      number: (inputs?.number.value ?? '').replace(/\D/g, ''),
      expiry: (inputs?.expiry.value ?? '').replace(/\D/g, ''),
      cvc: (inputs?.cvc.value ?? '').replace(/\D/g, ''),
    });

    function field(name, label, attributes) {
      const wrapper = document.createElement('div');
      wrapper.style.cssText = `display:flex;flex-direction:column;gap:4px;min-width:0;${name === 'number' ? 'grid-column:1 / -1' : ''}`;
      const labelElement = document.createElement('label');
      labelElement.htmlFor = `${prefix}-${name}`;
      labelElement.textContent = label;
      labelElement.style.cssText = 'font-size:14px;font-weight:600;color:#1c1b1a';
      const input = document.createElement('input');
      input.id = `${prefix}-${name}`;
      input.type = 'text';
      Object.assign(input, attributes);
      input.style.cssText = 'box-sizing:border-box;width:100%;min-height:44px;padding:8px 12px;border:1px solid #8f8982;border-radius:6px;background:#ffffff;color:#1c1b1a;font:16px system-ui,sans-serif';
      input.addEventListener('input', () => {
        const current = values();
        emit('change', {
          elementType: 'payment',
          empty: !current.number && !current.expiry && !current.cvc,
          complete: current.number.length === 16 && current.expiry.length === 4 && current.cvc.length >= 3,
          collapsed: false,
          value: { type: 'card' },
        });
      });
      wrapper.append(labelElement, input);
      return { wrapper, input };
    }

    function renderTerms() {
      if (!terms) return;
      const shown = options.terms?.card === 'always';
      terms.hidden = !shown;
      terms.textContent = shown ? 'By providing your card information, you allow the shop to charge your card for future payments in accordance with their terms.' : '';
    }

    const element = {
      mount(target) {
        node = typeof target === 'string' ? document.querySelector(target) : target;
        record('element.mount', { options });
        if (state().failToLoad) {
          setTimeout(() => emit('loaderror', { elementType: 'payment', error: { type: 'api_error', message: 'The payment form could not be loaded.' } }), READY_DELAY_MS);
          return;
        }
        const form = document.createElement('div');
        form.setAttribute('data-testid', 'payment-element');
        form.style.cssText = 'display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:12px';
        const number = field('number', 'Card number', { inputMode: 'numeric', autocomplete: 'cc-number', placeholder: '1234 1234 1234 1234', maxLength: 19 });
        const expiry = field('expiry', 'Expiration date', { inputMode: 'numeric', autocomplete: 'cc-exp', placeholder: 'MM / YY', maxLength: 7 });
        const cvc = field('cvc', 'Security code', { inputMode: 'numeric', autocomplete: 'cc-csc', placeholder: 'CVC', maxLength: 4 });
        terms = document.createElement('p');
        terms.style.cssText = 'grid-column:1 / -1;margin:0;font-size:14px;color:#4a4640';
        renderTerms();
        form.append(number.wrapper, expiry.wrapper, cvc.wrapper, terms);
        inputs = { number: number.input, expiry: expiry.input, cvc: cvc.input };
        node.append(form);
        // As the provider's frame does, a moment after mounting.
        setTimeout(() => emit('ready', { elementType: 'payment' }), READY_DELAY_MS);
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
        inputs?.number.focus();
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
        const { number, expiry, cvc } = values();
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
        group.element = createPaymentElement(group, { ...(elementOptions ?? {}) });
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
        const read = group.element.readCard();
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
        const read = elements?.element?.readCard();
        if (!read) return { error: { type: 'invalid_request_error', message: 'createPaymentMethod needs the elements of a mounted Payment Element.' } };
        if (read.error) return { error: read.error };
        try {
          const paymentMethod = await api('POST', '/v1/payment_methods', {
            params: { type: 'card', card: read.card, billing_details: request.params?.billing_details },
          });
          return { paymentMethod };
        } catch (error) {
          return { error };
        }
      },

      async handleNextAction({ clientSecret }) {
        record('handleNextAction', { clientSecret });
        try {
          return String(clientSecret).startsWith('seti_')
            ? await authenticateSetupIntent(clientSecret, publishableKey)
            : await authenticatePaymentIntent(clientSecret, publishableKey);
        } catch (error) {
          return { error };
        }
      },

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
      confirmCashappSetup: notSupported('confirmCashappSetup'),
      registerAppInfo() {},
      _registerWrapper() {},
    };
    return stripe;
  }

  // The release the storefront's @stripe/stripe-js expects, so it loads the double quietly.
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();

// Paying through the card gateway, step by step, for the checkout and the order-pay
// page: check the element, create the payment method with the billing details, hand
// its id to the order call (payment_data), then read the answer: paid; a return
// fragment (3-D Secure, a voucher, a wallet), handled in place; a redirect method's
// page; or refused. And saving a method without a
// payment (adding one in the account area, changing an order's method).
import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { paths, toAppPath } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { leavePage } from '@/lib/leave-page';
import type { PaymentBillingAddress, PaymentDataItem, PaymentOutcome, PlacedPayment, PreparedPayment } from '@/types/payment-binding';
import { createAndConfirmSetupIntent } from '../api/create-and-confirm-setup-intent';
import type { PaymentPageSettings } from '../api/get-page-settings';
import { updateOrderStatus } from '../api/update-order-status';
import { looksLikeReturnFragment } from './fragment-marker';
import { billingDetails, checkBlikCode, type PaymentMethodType, type PaymentPage } from './method-rules';
import { INVALID_DETAILS_MESSAGE, PAYMENT_FAILED_MESSAGE, PAYMENT_PROBLEM_MESSAGE, paymentErrorMessage } from './payment-errors';

/** What the payment box knows when its form is sent. */
export interface PaymentState {
  pageSettings: PaymentPageSettings;
  page: PaymentPage;
  type: PaymentMethodType;
  /** The provider and the element's group, once the element is up. */
  stripe: Stripe | null;
  elements: StripeElements | null;
  /** The element failed to load (or the provider's script did). */
  loadFailed: boolean;
  /** A saved method the shopper chose instead of a new one. */
  savedMethodId: number | null;
  /** "Save payment information…" is ticked. */
  saveNew: boolean;
  /** The billing details to send with a new method; null sends none. */
  billing: PaymentBillingAddress | null;
  blikCode: string;
}

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

/** Checks the element and creates the payment method; its id, or the message to show. */
async function createPaymentMethod(state: PaymentState): Promise<{ ok: true; id: string; type: string } | { ok: false; message: string }> {
  const { stripe, elements } = state;
  if (state.loadFailed || !stripe || !elements) return fail(INVALID_DETAILS_MESSAGE);
  if (state.type === 'blik') {
    const invalid = checkBlikCode(state.blikCode);
    if (invalid) return fail(invalid);
  }
  const submitted = await elements.submit();
  // The element's own checks speak for themselves.
  if (submitted.error) return fail(submitted.error.message || paymentErrorMessage(submitted.error, state.pageSettings));
  const params = state.billing ? { billing_details: billingDetails(state.billing) } : {};
  const created = await stripe.createPaymentMethod({ elements, params });
  if (created.error) return fail(paymentErrorMessage(created.error, state.pageSettings));
  return { ok: true, id: created.paymentMethod.id, type: created.paymentMethod.type };
}

/**
 * Before the order call: the `payment_data` for a saved method, or for a new one made
 * from the element (checked first).
 */
export async function preparePayment(state: PaymentState): Promise<PreparedPayment & { paymentMethodId?: string }> {
  const common: PaymentDataItem[] = [
    { key: 'wc-stripe-is-deferred-intent', value: '1' },
    { key: 'wc-stripe-payment-type', value: state.type },
  ];
  if (state.savedMethodId !== null) {
    return {
      ok: true,
      paymentData: [{ key: 'wc-stripe-payment-token', value: String(state.savedMethodId) }, ...common, { key: 'wc-stripe-new-payment-method', value: 'false' }],
    };
  }
  try {
    const created = await createPaymentMethod(state);
    if (!created.ok) return created;
    const paymentData = [{ key: 'wc-stripe-payment-method', value: created.id }, ...common, { key: 'wc-stripe-new-payment-method', value: String(state.saveNew) }];
    if (state.type === 'blik') paymentData.push({ key: 'wc-stripe-blik-code', value: state.blikCode.trim() });
    return { ok: true, paymentData, paymentMethodId: created.id };
  } catch (error) {
    return fail(paymentErrorMessage(error, state.pageSettings, { confirming: true }));
  }
}

export interface CompletionContext {
  /** The provider; loaded now if the element never was (a saved card that needs 3-D Secure). */
  provider: () => Promise<Stripe | null>;
  /** The payment method made for this order, when the shopper asked to save it. */
  paymentMethodToSave: string;
  /** Where to try again after a failed confirmation; null stays on the page. */
  retryPage: string | null;
}

/** The page to pay a placed order again from: the order-pay page when the answer named its key. */
export function retryPageOf(placed: PlacedPayment, page: PaymentPage): string | null {
  if (page !== 'checkout' || !placed.order_key) return null;
  return paths.orderPay(placed.order_id, placed.order_key);
}

/** The page is being left for another site's: nothing more happens here. */
const leaving = (url: string): Promise<PaymentOutcome> => {
  leavePage(url);
  return new Promise<PaymentOutcome>(() => {});
};

/**
 * After the order call. Paid: go on. A return fragment (3-D Secure, a voucher, a
 * wallet's dialog, the older card confirmation) is handled here, as its kind says
 * (return-fragments.ts, loaded then). A redirect method's answer is its provider's
 * page: the browser goes there, the promise never settles (the page is being left).
 */
export async function completePayment(state: Pick<PaymentState, 'pageSettings' | 'page' | 'stripe'>, placed: PlacedPayment, context: CompletionContext): Promise<PaymentOutcome> {
  const { payment_status: status, redirect_url: redirect } = placed.payment_result;
  if (looksLikeReturnFragment(redirect)) {
    let handlers: typeof import('./return-fragments');
    try {
      handlers = await import('./return-fragments');
    } catch {
      // The order is placed; the page could not get on with paying it.
      return { ok: false, message: PAYMENT_PROBLEM_MESSAGE, redirect: context.retryPage };
    }
    const { handleReturnFragment, parseReturnFragment } = handlers;
    const fragment = parseReturnFragment(redirect);
    // A fragment of the gateway's that cannot be read: the payment cannot go on from here.
    if (!fragment) return { ok: false, message: PAYMENT_FAILED_MESSAGE, redirect: context.retryPage };
    const { stripe } = state;
    return handleReturnFragment(fragment, {
      pageSettings: state.pageSettings,
      page: state.page,
      provider: stripe ? () => Promise.resolve(stripe) : context.provider,
      paymentMethodToSave: context.paymentMethodToSave,
      retryPage: context.retryPage,
    });
  }
  if (!redirect || (status !== 'success' && status !== 'pending')) return { ok: false, message: PAYMENT_FAILED_MESSAGE, redirect: null };
  const target = addressOf(redirect);
  if (target && target.origin !== window.location.origin) return leaving(target.href);
  return { ok: true, redirect };
}

function addressOf(url: string): URL | null {
  try {
    return new URL(url, window.location.href);
  } catch {
    return null;
  }
}

/**
 * The order call's refusal. A declined card leaves the order waiting for payment: its
 * `pay_url` is where the checkout sends the shopper (the cart became that order). A
 * provider's code reads as the page settings say; anything else is the form's to show.
 */
export function paymentRefusal(error: unknown, pageSettings: PaymentPageSettings, page: PaymentPage): { message: string; redirect: string | null } | null {
  if (!(error instanceof ApiError)) return null;
  const payUrl = error.data?.pay_url;
  const known = typeof pageSettings[error.code] === 'string';
  if (typeof payUrl !== 'string' && !known) return null;
  const message = paymentErrorMessage({ code: error.code, message: error.message }, pageSettings);
  return { message, redirect: typeof payUrl === 'string' && payUrl && page === 'checkout' ? toAppPath(payUrl) : null };
}

/** What saving a method ended with; `message` is empty when the shopper simply stopped. */
export type SaveOutcome = PaymentOutcome;

/**
 * Saving a new method without paying: create it, let the shop create and confirm a
 * setup intent, finish that intent as its status says (spec: succeeded; a redirect;
 * Cash App's own confirmation; otherwise confirmSetup if required), then on the
 * change-payment page tell the shop which order the method is for.
 */
export async function savePaymentMethod(state: PaymentState, options: { updateAllSubscriptions?: boolean } = {}): Promise<SaveOutcome> {
  const { pageSettings } = state;
  try {
    const created = await createPaymentMethod(state);
    if (!created.ok) return { ...created, redirect: null };
    const stripe = state.stripe!;
    const intent = await createAndConfirmSetupIntent(pageSettings, {
      paymentMethodId: created.id,
      paymentMethodType: created.type || state.type,
      updateAllSubscriptions: options.updateAllSubscriptions,
    });
    let intentId = intent.id;
    // A setup finished here after a challenge: the return address names it, as the
    // provider's own redirect would, so the shop keeps the method it set up.
    let confirmedHere = false;
    if (intent.status !== 'succeeded') {
      const redirectTo = intent.next_action?.type === 'redirect_to_url' ? intent.next_action.redirect_to_url?.url : undefined;
      if (intent.status === 'requires_action' && redirectTo) return { ok: true, redirect: redirectTo };
      if (intent.payment_type === 'cashapp') {
        const returnUrl = decodeURIComponent(intent.return_url);
        const confirmed = await stripe.confirmCashappSetup(intent.client_secret, { return_url: returnUrl });
        if (confirmed.error) return { ok: false, message: paymentErrorMessage(confirmed.error, pageSettings), redirect: null };
        // Closed without finishing: the form is the shopper's again, with nothing to report.
        if (confirmed.setupIntent.status !== 'succeeded') return { ok: false, message: '', redirect: null };
        return { ok: true, redirect: returnUrl };
      }
      const confirmed = await stripe.confirmSetup({ clientSecret: intent.client_secret, redirect: 'if_required' });
      if (confirmed.error) return { ok: false, message: paymentErrorMessage(confirmed.error, pageSettings, { confirming: true }), redirect: null };
      intentId = confirmed.setupIntent.id;
      confirmedHere = true;
    }
    if (state.page === 'change-payment') {
      const returnUrl = await updateOrderStatus(pageSettings, {
        orderId: pageSettings.orderId,
        intentId,
        paymentMethodId: created.id,
        nonce: pageSettings.confirmChangePaymentNonce,
        changingPayment: true,
      });
      return { ok: true, redirect: returnUrl };
    }
    if (!confirmedHere) return { ok: true, redirect: pageSettings.addPaymentReturnURL };
    const back = new URL(pageSettings.addPaymentReturnURL, window.location.href);
    back.searchParams.set('setup_intent', intentId);
    back.searchParams.set('redirect_status', 'succeeded');
    return { ok: true, redirect: back.pathname + back.search };
  } catch (error) {
    return { ok: false, message: paymentErrorMessage(error, pageSettings, { confirming: true }), redirect: null };
  }
}

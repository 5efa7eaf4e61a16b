// What the page does with each payment return fragment (confirm-fragment.ts reads
// them), wherever one arrives: in the answer to an order (completePayment), or in the
// address of a payment page (usePaymentReturn). One handler per kind; each ends in a
// PaymentOutcome: where to go, or what to show (an empty message shows nothing: the
// form is simply the shopper's again). Loaded only when a fragment is there, with the
// parser.
import type { PaymentIntent, SetupIntent, Stripe, StripeError } from '@stripe/stripe-js';
import type { PaymentOutcome } from '@/types/payment-binding';
import type { PaymentPageSettings } from '../api/get-page-settings';
import { updateFailedOrder } from '../api/update-failed-order';
import { updateOrderStatus } from '../api/update-order-status';
import type { ConfirmFragment, LegacyConfirmFragment, ReturnFragment, VoucherFragment, WalletFragment } from './confirm-fragment';
import { removeReturnFragment } from './fragment-marker';
import type { PaymentPage } from './method-rules';
import { PAYMENT_FAILED_MESSAGE, PAYMENT_PROBLEM_MESSAGE, paymentErrorMessage } from './payment-errors';

export { parseReturnFragment } from './confirm-fragment';

export interface FragmentContext {
  pageSettings: PaymentPageSettings;
  page: PaymentPage;
  /** The provider, loaded when first needed; null when its script cannot be had. */
  provider: () => Promise<Stripe | null>;
  /** 3-D Secure: the payment method made for this order, when the shopper asked to save it. */
  paymentMethodToSave?: string;
  /** 3-D Secure: where to pay the order again after a failed confirmation; null stays. */
  retryPage?: string | null;
}

/** Nothing to go on with and nothing to say: the form is the shopper's again. */
const STAY: PaymentOutcome = { ok: false, message: '', redirect: null };

const shown = (message: string): PaymentOutcome => ({ ok: false, message, redirect: null });

class ProviderUnavailable extends Error {
  constructor() {
    super('The payment provider could not be loaded.');
    this.name = 'ProviderUnavailable';
  }
}

async function providerOf(context: FragmentContext): Promise<Stripe> {
  const stripe = await context.provider();
  if (!stripe) throw new ProviderUnavailable();
  return stripe;
}

/** The order-pay page and changing an order's method: pages of one order. */
const onOrderPage = (page: PaymentPage) => page === 'order-pay' || page === 'change-payment';

/** On an order's own page, a fragment about another order is not this page's to handle. */
function forAnotherOrder(orderId: number, context: FragmentContext): boolean {
  return onOrderPage(context.page) && orderId !== Number(context.pageSettings.orderId);
}

/**
 * The address of a page of the shop itself (this page's origin), as the app navigates
 * to it (path, query, fragment); null for another site's or anything unreadable.
 */
export function shopAddress(url: string): string | null {
  try {
    const target = new URL(url, window.location.href);
    if (target.origin !== window.location.origin) return null;
    return target.pathname + target.search + target.hash;
  } catch {
    return null;
  }
}

/** Whether a provider error has something of its own to say (a known code, or a message). */
function speaksForItself(error: unknown, pageSettings: PaymentPageSettings): boolean {
  if (!error || typeof error !== 'object' || error instanceof ProviderUnavailable) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (typeof code === 'string' && typeof pageSettings[code] === 'string') || (typeof message === 'string' && message !== '');
}

// ---- #wc-stripe-confirm-… ------------------------------------------------------------

/** The intent ids a provider result names, whichever way it went. */
function intentIdOfResult(result: { paymentIntent?: { id: string }; setupIntent?: { id: string }; error?: StripeError }): string | null {
  return result.paymentIntent?.id ?? result.setupIntent?.id ?? result.error?.payment_intent?.id ?? result.error?.setup_intent?.id ?? null;
}

/**
 * 3-D Secure: the provider handles the next action here, then the shop is told
 * (update_order_status, or confirm_change_payment when changing a method) with the
 * fragment's nonce and answers where to go. A failed confirmation is reported
 * (update_failed_order) and goes where the order can be paid again.
 */
export async function confirmIntentFragment(fragment: ConfirmFragment, context: FragmentContext): Promise<PaymentOutcome> {
  const { pageSettings } = context;
  // An order's own page knows its order; elsewhere the fragment names it.
  const orderId = onOrderPage(context.page) && Number(pageSettings.orderId) > 0 ? Number(pageSettings.orderId) : fragment.orderId;
  let intentId = fragment.intentId;
  const failed = async (error: unknown): Promise<PaymentOutcome> => {
    await updateFailedOrder(pageSettings, intentId, orderId);
    return { ok: false, message: paymentErrorMessage(error, pageSettings, { confirming: true }), redirect: context.retryPage ?? null };
  };
  try {
    const stripe = await providerOf(context);
    const result = await stripe.handleNextAction({ clientSecret: fragment.clientSecret });
    intentId = intentIdOfResult(result) ?? intentId;
    if (result.error) return await failed(result.error);
    const intent = result.paymentIntent ?? result.setupIntent;
    if (intent && !['succeeded', 'processing', 'requires_capture'].includes(intent.status)) {
      const lastError = 'last_payment_error' in intent ? intent.last_payment_error : intent.last_setup_error;
      return await failed(lastError ?? { message: PAYMENT_FAILED_MESSAGE });
    }
    const returnUrl = await updateOrderStatus(pageSettings, {
      orderId,
      intentId,
      paymentMethodId: context.paymentMethodToSave ?? '',
      nonce: fragment.nonce,
      changingPayment: context.page === 'change-payment',
    });
    return { ok: true, redirect: returnUrl };
  } catch (error) {
    return failed(error);
  }
}

// ---- #confirm-{pi|si}-… --------------------------------------------------------------

/** `…?a=1` → `…?a=1&is_ajax`; `…` → `…?is_ajax`: the flag the older confirmation reports with. */
export function withAjaxFlag(url: string): string {
  const target = new URL(url, window.location.href);
  target.hash = '';
  target.search = target.search ? `${target.search}&is_ajax` : '?is_ajax';
  return target.href;
}

/** Tells the shop an older confirmation failed: its return URL, flagged. The answer does not matter. */
function reportLegacyFailure(returnUrl: string): void {
  try {
    void fetch(withAjaxFlag(returnUrl), { credentials: 'same-origin' }).catch(() => {});
  } catch {
    // Ignored as its answer is.
  }
}

/**
 * The older card confirmation: the provider handles the next action; a payment held
 * for capture or paid goes to the return URL. A failure restores the form with the
 * provider's message, and the return URL is then fetched with `is_ajax` so the shop
 * hears of it. A return URL of another site is neither followed nor fetched.
 */
export async function confirmLegacyFragment(fragment: LegacyConfirmFragment, context: FragmentContext): Promise<PaymentOutcome> {
  const returnUrl = shopAddress(fragment.returnUrl);
  if (!returnUrl) return STAY;
  try {
    const stripe = await providerOf(context);
    const result = await stripe.handleNextAction({ clientSecret: fragment.clientSecret });
    if (result.error) throw result.error;
    const intent = fragment.intentKind === 'setup_intent' ? result.setupIntent : result.paymentIntent;
    const status: string | undefined = intent?.status;
    return status === 'requires_capture' || status === 'succeeded' ? { ok: true, redirect: returnUrl } : STAY;
  } catch (error) {
    const message = paymentErrorMessage(error, context.pageSettings, { confirming: true });
    reportLegacyFailure(returnUrl);
    return shown(message);
  }
}

// ---- #wc-stripe-voucher-… ------------------------------------------------------------

function confirmVoucher(stripe: Stripe, fragment: VoucherFragment) {
  switch (fragment.method) {
    case 'boleto':
      return stripe.confirmBoletoPayment(fragment.clientSecret, {});
    case 'multibanco':
      return stripe.confirmMultibancoPayment(fragment.clientSecret, {});
    case 'oxxo':
      return stripe.confirmOxxoPayment(fragment.clientSecret, {});
  }
}

/**
 * Where a shown voucher goes on to: the return URL when it is the shop's own, else the
 * order-received address plus the order id; null when neither is usable.
 */
export function voucherDestination(fragment: Pick<VoucherFragment, 'returnUrl' | 'orderId'>, pageSettings: Pick<PaymentPageSettings, 'orderReceivedURL'>): string | null {
  const back = shopAddress(fragment.returnUrl);
  if (back) return back;
  const received = typeof pageSettings.orderReceivedURL === 'string' ? pageSettings.orderReceivedURL : '';
  if (!received) return null;
  try {
    const target = new URL(`${received}${fragment.orderId}`, window.location.href);
    return target.protocol === 'https:' || target.protocol === 'http:' ? (shopAddress(target.href) ?? target.href) : null;
  } catch {
    return null;
  }
}

/**
 * A voucher (boleto, multibanco, oxxo): the provider shows it; once the shopper closes
 * it, the order's page. On an order's own page a voucher of another order is ignored.
 */
export async function confirmVoucherFragment(fragment: VoucherFragment, context: FragmentContext): Promise<PaymentOutcome> {
  removeReturnFragment();
  if (forAnotherOrder(fragment.orderId, context)) return STAY;
  const { pageSettings } = context;
  try {
    const stripe = await providerOf(context);
    const result = await confirmVoucher(stripe, fragment);
    if (result.error) {
      return shown(speaksForItself(result.error, pageSettings) ? paymentErrorMessage(result.error, pageSettings) : PAYMENT_PROBLEM_MESSAGE);
    }
  } catch {
    return shown(PAYMENT_PROBLEM_MESSAGE);
  }
  const destination = voucherDestination(fragment, pageSettings);
  return destination ? { ok: true, redirect: destination } : shown(PAYMENT_PROBLEM_MESSAGE);
}

// ---- #wc-stripe-wallet-… -------------------------------------------------------------

export const WALLETS = ['wechat_pay', 'cashapp'] as const;

/** The address the wallet's app returns the shopper to: the fragment's, when it is the shop's; else this page. */
function walletReturnUrl(returnUrl: string): string {
  const back = shopAddress(returnUrl) ?? window.location.pathname + window.location.search;
  return new URL(back, window.location.href).href;
}

type WalletResult = { error?: StripeError; paymentIntent?: PaymentIntent; setupIntent?: SetupIntent };

function confirmWallet(stripe: Stripe, fragment: WalletFragment): Promise<WalletResult> | null {
  switch (fragment.wallet) {
    case 'wechat_pay':
      return stripe.confirmWechatPayPayment(fragment.clientSecret, { payment_method_options: { wechat_pay: { client: 'web' } } });
    case 'cashapp': {
      const options = { return_url: walletReturnUrl(fragment.returnUrl) };
      return fragment.intentKind === 'setup_intent' ? stripe.confirmCashappSetup(fragment.clientSecret, options) : stripe.confirmCashappPayment(fragment.clientSecret, options);
    }
    default:
      return null;
  }
}

const idOf = (value: string | { id: string } | null | undefined): string => (typeof value === 'string' ? value : (value?.id ?? ''));

/**
 * A wallet (WeChat Pay, Cash App): the provider shows its dialog. A payment made (or
 * anything but waiting for the shopper) is confirmed to the shop with the fragment's
 * nonce (confirm_change_payment), which answers where to go; a failed one shows its
 * error; a dialog closed without paying leaves the shopper on the page.
 */
export async function confirmWalletFragment(fragment: WalletFragment, context: FragmentContext): Promise<PaymentOutcome> {
  removeReturnFragment();
  if (forAnotherOrder(fragment.orderId, context)) return STAY;
  const { pageSettings } = context;
  // Not paid: the order placed from the checkout (its cart now the order) is paid
  // again on its own page; anywhere else the shopper stays where they are.
  const unpaid = (message: string): PaymentOutcome => ({ ok: false, message, redirect: context.retryPage ?? null });
  try {
    const stripe = await providerOf(context);
    const confirming = confirmWallet(stripe, fragment);
    if (!confirming) {
      const invalid = pageSettings.invalid_wallet_type;
      return unpaid(typeof invalid === 'string' && invalid ? invalid : PAYMENT_FAILED_MESSAGE);
    }
    const result = await confirming;
    if (result.error) return unpaid(paymentErrorMessage(result.error, pageSettings, { confirming: true }));
    const intent = fragment.intentKind === 'setup_intent' ? result.setupIntent : result.paymentIntent;
    if (!intent) return unpaid(PAYMENT_FAILED_MESSAGE);
    const lastError = 'last_payment_error' in intent ? intent.last_payment_error : intent.last_setup_error;
    if (lastError) return unpaid(paymentErrorMessage(lastError, pageSettings));
    // Closed without paying: nothing to say.
    if (intent.status === 'requires_action') return unpaid('');
    const returnUrl = await updateOrderStatus(pageSettings, {
      orderId: fragment.orderId,
      intentId: intent.id,
      paymentMethodId: idOf(intent.payment_method),
      nonce: fragment.nonce,
      changingPayment: true,
    });
    return { ok: true, redirect: returnUrl };
  } catch (error) {
    return unpaid(paymentErrorMessage(error, pageSettings, { confirming: true }));
  }
}

// ---- Any of them ------------------------------------------------------------------------

/** Handles a return fragment of any kind; a fragment in the page's address is taken out of it first. */
export function handleReturnFragment(fragment: ReturnFragment, context: FragmentContext): Promise<PaymentOutcome> {
  removeReturnFragment();
  switch (fragment.kind) {
    case 'confirm':
      return confirmIntentFragment(fragment, context);
    case 'legacy-confirm':
      return confirmLegacyFragment(fragment, context);
    case 'voucher':
      return confirmVoucherFragment(fragment, context);
    case 'wallet':
      return confirmWalletFragment(fragment, context);
  }
}

// The fragments a payment comes back with when the shopper still has something to do
// in the page (spec §2, "Payment return fragments"). The shop answers a payment with
// one (the Store API's `payment_result.redirect_url`), or a page is opened with one in
// its address:
//
//   #wc-stripe-confirm-{pi|si}:{order id}:{client secret}:{nonce}          3-D Secure
//   #confirm-{pi|si}-{client secret}:{return url}                           older card confirmation
//   #wc-stripe-voucher-{order id}:{method}:{client secret}:{return url}     boleto, multibanco, oxxo
//   #wc-stripe-wallet-{order id}:{wallet}:{intent kind}:{client secret}:{return url}:{nonce}
//
// Return URLs are URL-encoded. Reading is strict: anything else in a part (an order id
// that is not a number, an unknown kind, a secret of the other intent kind, a return
// URL that does not decode or is not an http(s) address) and the fragment is not one.
// Loaded with the handlers (return-fragments.ts): a page without a fragment needs no
// more than fragment-marker.ts.
import { fragmentOf, RETURN_FRAGMENT_START } from './fragment-marker';

export type IntentKind = 'payment_intent' | 'setup_intent';

/** `#wc-stripe-confirm-…`: confirm in place (3-D Secure), then tell the shop with the nonce. */
export interface ConfirmFragment {
  kind: 'confirm';
  intentKind: IntentKind;
  orderId: number;
  clientSecret: string;
  /** The intent's id, read from its client secret (`pi_123_secret_abc` → `pi_123`). */
  intentId: string;
  nonce: string;
}

/** `#confirm-{pi|si}-…`: the older card confirmation, then the return URL. */
export interface LegacyConfirmFragment {
  kind: 'legacy-confirm';
  intentKind: IntentKind;
  clientSecret: string;
  intentId: string;
  /** Decoded. */
  returnUrl: string;
}

export const VOUCHER_METHODS = ['boleto', 'multibanco', 'oxxo'] as const;
export type VoucherMethod = (typeof VOUCHER_METHODS)[number];

/** `#wc-stripe-voucher-…`: show the voucher, then the order's page. */
export interface VoucherFragment {
  kind: 'voucher';
  orderId: number;
  method: VoucherMethod;
  clientSecret: string;
  intentId: string;
  returnUrl: string;
}

/** `#wc-stripe-wallet-…`: the wallet's dialog (WeChat Pay, Cash App), then the shop is told. */
export interface WalletFragment {
  kind: 'wallet';
  orderId: number;
  /** As the fragment names it; only `wechat_pay` and `cashapp` are handled. */
  wallet: string;
  intentKind: IntentKind;
  clientSecret: string;
  intentId: string;
  returnUrl: string;
  nonce: string;
}

export type ReturnFragment = ConfirmFragment | LegacyConfirmFragment | VoucherFragment | WalletFragment;

// The parts, each as strict as its values are: a client secret is the intent's id and
// a secret, both of letters and digits; a nonce is letters and digits; an encoded URL
// has no raw colon (the separator) and no space.
const ORDER = '([1-9][0-9]{0,14})';
const SECRET = '((?:pi|seti)_[A-Za-z0-9]+_secret_[A-Za-z0-9]+)';
const NONCE = '([A-Za-z0-9]{1,64})';
const URL_PART = '([^:#\\s]{1,2048})';

const CONFIRM = new RegExp(`^wc-stripe-confirm-(pi|si):${ORDER}:${SECRET}:${NONCE}$`);
const LEGACY = new RegExp(`^confirm-(pi|si)-${SECRET}:${URL_PART}$`);
const VOUCHER = new RegExp(`^wc-stripe-voucher-${ORDER}:(${VOUCHER_METHODS.join('|')}):${SECRET}:${URL_PART}$`);
const WALLET = new RegExp(`^wc-stripe-wallet-${ORDER}:([a-z][a-z0-9_]{0,31}):(payment_intent|setup_intent):${SECRET}:${URL_PART}:${NONCE}$`);

/** Longer than any fragment the shop makes: refused before any pattern runs. */
const MAX_FRAGMENT_LENGTH = 4096;

/** A return URL as the fragment has it, decoded; null when it does not decode or is no web address. */
function decodeReturnUrl(encoded: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    return null;
  }
  // Control characters (a newline in a header, a NUL) are never part of an address.
  // eslint-disable-next-line no-control-regex
  if (!decoded || /[\u0000-\u001f\u007f]/.test(decoded)) return null;
  try {
    const parsed = new URL(decoded, 'https://shop.invalid/');
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? decoded : null;
  } catch {
    return null;
  }
}

const intentKindOf = (short: string): IntentKind => (short === 'si' ? 'setup_intent' : 'payment_intent');

/** A client secret of the kind the fragment says: `pi_…` for a payment, `seti_…` for a setup. */
const secretFits = (secret: string, kind: IntentKind) => secret.startsWith(kind === 'setup_intent' ? 'seti_' : 'pi_');

/** The groups of a pattern that matched (every group of these patterns is required), or null. */
function groups(pattern: RegExp, fragment: string): string[] | null {
  const match = pattern.exec(fragment);
  return match ? match.slice(1).map((part) => part ?? '') : null;
}

/** The return fragment of an address (or a bare `#…`), or null when it carries none. */
export function parseReturnFragment(url: string): ReturnFragment | null {
  const fragment = fragmentOf(url);
  if (fragment === null || fragment.length > MAX_FRAGMENT_LENGTH || !RETURN_FRAGMENT_START.test(fragment)) return null;

  const confirm = groups(CONFIRM, fragment);
  if (confirm) {
    const [short = '', order = '', secret = '', nonce = ''] = confirm;
    const intentKind = intentKindOf(short);
    if (!secretFits(secret, intentKind)) return null;
    return { kind: 'confirm', intentKind, orderId: Number(order), clientSecret: secret, intentId: intentIdOf(secret), nonce };
  }

  const legacy = groups(LEGACY, fragment);
  if (legacy) {
    const [short = '', secret = '', encoded = ''] = legacy;
    const intentKind = intentKindOf(short);
    const returnUrl = decodeReturnUrl(encoded);
    if (!secretFits(secret, intentKind) || returnUrl === null) return null;
    return { kind: 'legacy-confirm', intentKind, clientSecret: secret, intentId: intentIdOf(secret), returnUrl };
  }

  const voucher = groups(VOUCHER, fragment);
  if (voucher) {
    const [order = '', method = '', secret = '', encoded = ''] = voucher;
    const returnUrl = decodeReturnUrl(encoded);
    if (!secretFits(secret, 'payment_intent') || returnUrl === null) return null;
    return { kind: 'voucher', orderId: Number(order), method: method as VoucherMethod, clientSecret: secret, intentId: intentIdOf(secret), returnUrl };
  }

  const wallet = groups(WALLET, fragment);
  if (wallet) {
    const [order = '', type = '', kind = '', secret = '', encoded = '', nonce = ''] = wallet;
    const intentKind = kind as IntentKind;
    const returnUrl = decodeReturnUrl(encoded);
    if (!secretFits(secret, intentKind) || returnUrl === null) return null;
    return { kind: 'wallet', orderId: Number(order), wallet: type, intentKind, clientSecret: secret, intentId: intentIdOf(secret), returnUrl, nonce };
  }
  return null;
}

/** The 3-D Secure fragment of an address, or null when it carries another or none. */
export function parseConfirmFragment(url: string): ConfirmFragment | null {
  const fragment = parseReturnFragment(url);
  return fragment?.kind === 'confirm' ? fragment : null;
}

/** `pi_123_secret_abc` → `pi_123`; a secret without the marker is returned as it is. */
export function intentIdOf(clientSecret: string): string {
  const at = clientSecret.indexOf('_secret_');
  return at > 0 ? clientSecret.slice(0, at) : clientSecret;
}

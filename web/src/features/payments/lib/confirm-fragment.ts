// The fragment the shop answers with when a payment or a setup needs the shopper (3-D
// Secure): #wc-stripe-confirm-{pi|si}:{order id}:{client secret}:{nonce}. The page
// confirms the intent in place, then tells the shop with the nonce it carries.

export interface ConfirmFragment {
  /** A payment intent or a setup intent. */
  kind: 'pi' | 'si';
  orderId: number;
  clientSecret: string;
  nonce: string;
  /** The intent's id, read from its client secret (`pi_123_secret_abc` → `pi_123`). */
  intentId: string;
}

const CONFIRM_FRAGMENT = /#wc-stripe-confirm-(pi|si):(\d+):([^:]+):([^:#]+)$/;

/** The fragment of an address (or a bare `#…`), or null when it carries none. */
export function parseConfirmFragment(url: string): ConfirmFragment | null {
  const match = CONFIRM_FRAGMENT.exec(url);
  if (!match) return null;
  const [, kind, order, secret, nonce] = match;
  const clientSecret = decodeURIComponent(secret!);
  return {
    kind: kind as 'pi' | 'si',
    orderId: Number(order),
    clientSecret,
    nonce: decodeURIComponent(nonce!),
    intentId: intentIdOf(clientSecret),
  };
}

/** `pi_123_secret_abc` → `pi_123`; a secret without the marker is returned as it is. */
export function intentIdOf(clientSecret: string): string {
  const at = clientSecret.indexOf('_secret_');
  return at > 0 ? clientSecret.slice(0, at) : clientSecret;
}

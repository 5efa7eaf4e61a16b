// The provider's script, loaded when a payment page first needs it: from its official
// address, or the `window.Stripe` the page already has. Only the payment chunks import
// this module, so no other page loads anything of the provider.
import type { Stripe, StripeConstructorOptions } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';

const instances = new Map<string, Promise<Stripe | null>>();

export interface StripeKeys {
  key?: string;
  locale: string;
  /** Unset: the account's own version (the express checkout's params name none). */
  apiVersion?: string;
}

/**
 * One provider instance per key and locale. Resolves null when the script could not be
 * loaded (a blocked or offline address): the caller shows the load failure instead of
 * an unhandled rejection.
 */
export function loadProvider({ key, locale, apiVersion }: StripeKeys): Promise<Stripe | null> {
  if (!key) return Promise.resolve(null);
  const id = `${key}|${locale}|${apiVersion ?? ''}`;
  let instance = instances.get(id);
  if (!instance) {
    instance = loadStripe(key, { locale: locale as StripeConstructorOptions['locale'], ...(apiVersion ? { apiVersion } : {}) }).catch(() => {
      // Let a later page view try again.
      instances.delete(id);
      return null;
    });
    instances.set(id, instance);
  }
  return instance;
}

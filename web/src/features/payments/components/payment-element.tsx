// The one place the provider's components are used: `Elements` for a deferred intent
// (the intent is made when the order is placed) around the Payment Element. Loaded in
// a chunk of its own the first time a payment form shows (see payment-box.tsx).
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Appearance, Stripe, StripeElements, StripeElementsOptionsMode, StripePaymentElementOptions } from '@stripe/stripe-js';
import { useEffect, useMemo } from 'react';
import type { PaymentPageSettings } from '../api/get-page-settings';
import { loadProvider } from '../lib/load-stripe';
import type { HiddenBillingFields } from '../lib/method-rules';

export interface ElementHandles {
  stripe: Stripe;
  elements: StripeElements;
}

export interface PaymentElementProps {
  pageSettings: PaymentPageSettings;
  /** The method types the element offers (one, but for the one-checkout mode). */
  types: string[];
  mode: 'payment' | 'setup';
  /** Minor units. */
  amount: number;
  appearance: Appearance;
  fonts: { cssSrc: string }[];
  /** Billing fields the shop's form asks for; null leaves them to the element. */
  hiddenFields: HiddenBillingFields | null;
  terms: Record<string, 'always' | 'never'>;
  layout: StripePaymentElementOptions['layout'];
  className: string;
  /** The provider and the element's group, once they exist. */
  onReady: (handles: ElementHandles) => void;
  onLoadError: () => void;
  /** The type the shopper picked inside the element. */
  onTypeChange: (type: string) => void;
}

export default function PaymentElementFrame(props: PaymentElementProps) {
  const { pageSettings, types, mode, amount, appearance, fonts, onLoadError } = props;
  const { key, locale, apiVersion, currency } = pageSettings;
  // A script that cannot load resolves null: the box shows the load failure.
  const provider = useMemo(() => loadProvider({ key, locale, apiVersion }), [key, locale, apiVersion]);
  useEffect(() => {
    let current = true;
    void provider.then((stripe) => {
      if (!stripe && current) onLoadError();
    });
    return () => {
      current = false;
    };
  }, [provider, onLoadError]);

  const typesKey = types.join(',');
  const options = useMemo(
    // `paymentMethodTypes` keeps the element to the gateway's own types (Stripe.js takes
    // it; the library's types no longer list it).
    (): StripeElementsOptionsMode & { paymentMethodTypes: string[] } => ({
      mode,
      amount,
      currency: currency.toLowerCase(),
      paymentMethodCreation: 'manual',
      paymentMethodTypes: typesKey.split(','),
      appearance,
      fonts,
      locale: locale as StripeElementsOptionsMode['locale'],
    }),
    [mode, amount, currency, typesKey, appearance, fonts, locale],
  );

  return (
    <Elements stripe={provider} options={options}>
      <ElementSlot {...props} />
    </Elements>
  );
}

function ElementSlot({ hiddenFields, terms, layout, className, onReady, onLoadError, onTypeChange }: PaymentElementProps) {
  const stripe = useStripe();
  const elements = useElements();
  const termsKey = JSON.stringify(terms);
  const fieldsKey = JSON.stringify(hiddenFields);
  const layoutKey = JSON.stringify(layout);
  const options = useMemo(
    (): StripePaymentElementOptions => ({
      layout: JSON.parse(layoutKey) as StripePaymentElementOptions['layout'],
      // Wallets have their own express buttons; the card form never offers them.
      wallets: { applePay: 'never', googlePay: 'never' },
      terms: JSON.parse(termsKey) as StripePaymentElementOptions['terms'],
      ...(fieldsKey !== 'null' ? { fields: { billingDetails: JSON.parse(fieldsKey) as HiddenBillingFields } } : {}),
    }),
    [layoutKey, termsKey, fieldsKey],
  );
  // The group is usable as soon as it exists: a card sent before the element is ready
  // is refused by the element's own check, not lost.
  useEffect(() => {
    if (stripe && elements) onReady({ stripe, elements });
  }, [stripe, elements, onReady]);
  return (
    <PaymentElement
      className={className}
      options={options}
      onLoadError={onLoadError}
      onChange={(event) => {
        if (event.value?.type) onTypeChange(event.value.type);
      }}
    />
  );
}

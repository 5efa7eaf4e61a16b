// The provider's Express Checkout Element on a page, in a chunk of its own (fetched
// only when the params say the shop offers express checkout): the element group for a
// deferred payment of the page's amount, the button mounted, its events handed to the
// flow (lib/express-flow.ts). It shows once the element says a wallet can pay here;
// its messages sit above the button, and the page is blocked while a payment is under
// way. On a product page the amount follows the shopper's choice (quantity, variation),
// on the cart and checkout pages the cart.
import type { StripeElements, StripeExpressCheckoutElement, StripeExpressCheckoutElementReadyEvent } from '@stripe/stripe-js';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { BlockingOverlay, BUSY_MESSAGE } from '@/components/ui/blocking-overlay';
import { Notice } from '@/components/ui/notice';
import { htmlToText } from '@/lib/html-text';
import { leavePage } from '@/lib/leave-page';
import { NOTICE_SCROLL, scrollToElement } from '@/lib/scroll';
import type { PaymentNoticeState } from '@/types/payment-binding';
import { loadProvider } from '../../lib/load-stripe';
import { getSelectedProductData, type ExpressHttp } from '../api/express-calls';
import type { ExpressParams } from '../api/get-express-params';
import { readCartLocation, restoreCartLocation } from '../api/restore-cart';
import { completeExpressPayment } from '../lib/express-completion';
import { elementOptionsOf, elementsOptionsOf, quoteOf } from '../lib/express-data';
import { expressErrorMessage, expressFlow, type ExpressQuote, type ProductChoice } from '../lib/express-flow';
import type { ExpressCheckoutElementProps } from './express-checkout-props';
import styles from './express-checkout.module.css';

export const EXPRESS_CHECKOUT_TITLE = 'Express checkout';
export const SEPARATOR_TEXT = '— or —';

/** How long the product page's choice must rest before it is priced again (the original's debounce). */
const QUOTE_DELAY_MS = 250;

/** The choice as a key: product, quantity and the options chosen. */
function choiceKey(choice: ProductChoice | undefined): string {
  if (!choice) return '';
  const options = Object.entries(choice.attributes ?? {})
    .filter(([, value]) => value)
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([choice.productId, choice.quantity, options]);
}

/** The params price the product alone, once, with its default options: a plain product's first choice. */
function quotedByParams(params: ExpressParams, choice: ProductChoice | undefined): string | null {
  if (!params.product || !choice || choice.quantity !== 1) return null;
  const hasOptions = Object.values(choice.attributes ?? {}).some(Boolean);
  return hasOptions || params.product.validVariationSelected === false ? null : choiceKey(choice);
}

/** Whether the element found a wallet the shopper can pay with here. */
const walletsOffered = (event: StripeExpressCheckoutElementReadyEvent) => Object.values(event.availablePaymentMethods ?? {}).some(Boolean);

export default function ExpressCheckoutElement({ params, session, context, choice, onCartChanged }: ExpressCheckoutElementProps) {
  const navigate = useNavigate();
  const mountRef = useRef<HTMLDivElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const [available, setAvailable] = useState(false);
  const [failed, setFailed] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [quoting, setQuoting] = useState(false);

  // What the element's handlers read when they run: the latest of each.
  const [http] = useState<ExpressHttp>(() => ({ params, session }));
  const quote = useRef<ExpressQuote | null>(quoteOf(params));
  const problem = useRef<string | null>(null);
  const quotedKey = useRef<string | null>(quotedByParams(params, choice));
  const elementsRef = useRef<StripeElements | null>(null);
  const latest = useRef({ choice, onCartChanged, navigate });
  useEffect(() => {
    latest.current = { choice, onCartChanged, navigate };
  });

  // The element, once for the page.
  useEffect(() => {
    const opening = quote.current;
    if (!opening) {
      setFailed(true);
      return;
    }
    let current = true;
    let element: StripeExpressCheckoutElement | null = null;
    const leave = async (redirect: string, message?: string) => {
      const target = new URL(redirect, window.location.href);
      if (target.origin !== window.location.origin) {
        leavePage(target.href);
        return;
      }
      const state: PaymentNoticeState | undefined = message ? { paymentNotice: message } : undefined;
      await latest.current.navigate(target.pathname + target.search + target.hash, { state });
    };
    void loadProvider({ key: http.params.stripe.publishable_key, locale: http.params.stripe.locale, apiVersion: http.params.stripe.apiVersion }).then((stripe) => {
      if (!current) return;
      if (!stripe || !mountRef.current) {
        setFailed(true);
        return;
      }
      const elements = stripe.elements(elementsOptionsOf(http.params, opening.sheet.total.amount));
      elementsRef.current = elements;
      const made = elements.create('expressCheckout', elementOptionsOf(http.params));
      element = made;
      const flow = expressFlow({
        page: context,
        http,
        stripe,
        elements,
        quote: () => quote.current ?? opening,
        choice:
          context === 'product'
            ? () => ({
                selection: latest.current.choice ?? { productId: 0, quantity: 1, disabled: true, variationChosen: false },
                problem: problem.current,
              })
            : undefined,
        cart: context === 'product' ? undefined : { read: readCartLocation, restore: restoreCartLocation },
        complete: (placed) => completeExpressPayment(http, stripe, placed),
        ui: {
          busy: setBusy,
          notice: setNotice,
          leave,
          cartChanged: () => latest.current.onCartChanged?.(),
        },
      });
      made.on('ready', (event) => setAvailable(walletsOffered(event)));
      made.on('loaderror', () => setFailed(true));
      made.on('click', flow.click);
      made.on('shippingaddresschange', (event) => void flow.shippingAddressChange(event));
      made.on('shippingratechange', (event) => void flow.shippingRateChange(event));
      made.on('confirm', (event) => void flow.confirm(event));
      made.on('cancel', () => void flow.cancel());
      made.mount(mountRef.current);
    });
    return () => {
      current = false;
      element?.destroy();
      elementsRef.current = null;
    };
  }, [http, context]);

  // The cart and checkout pages: new params (the cart changed) bring the amount.
  useEffect(() => {
    http.params = params;
    if (context === 'product') return;
    const next = quoteOf(params);
    if (!next) return;
    quote.current = next;
    elementsRef.current?.update({ amount: next.sheet.total.amount });
  }, [http, params, context]);

  // The product page: a new choice is priced (once it rests), as the sheet will show it.
  const key = choiceKey(choice);
  useEffect(() => {
    if (context !== 'product') return;
    const selection = latest.current.choice;
    if (!selection || selection.disabled || key === quotedKey.current) return;
    let current = true;
    problem.current = null;
    setQuoting(true);
    const timer = setTimeout(() => {
      const { productId, quantity, attributes } = selection;
      getSelectedProductData(http, { productId, quantity, attributes })
        .then(
          (answer) => {
            if (!current) return;
            quotedKey.current = key;
            if ('error' in answer) {
              problem.current = htmlToText(answer.error) || expressErrorMessage(answer);
              return;
            }
            quote.current = { sheet: answer, requestShipping: answer.requestShipping, pendingShipping: answer.shippingOptions };
            elementsRef.current?.update({ amount: answer.total.amount });
          },
          (error: unknown) => {
            if (current) problem.current = expressErrorMessage(error);
          },
        )
        .finally(() => {
          if (current) setQuoting(false);
        });
    }, QUOTE_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
      setQuoting(false);
    };
  }, [http, context, key]);

  // A message is brought into view (the sheet has closed over the page).
  useEffect(() => {
    if (notice && noticeRef.current) scrollToElement(noticeRef.current, NOTICE_SCROLL);
  }, [notice]);

  if (failed) return null;

  const messages = notice ? (
    <Notice tone="error" ref={noticeRef} onDismiss={() => setNotice(null)}>
      {notice}
    </Notice>
  ) : null;
  const button = (
    <div className={styles.buttonArea} aria-busy={quoting}>
      <div ref={mountRef} className={styles.element} data-testid="express-checkout-element" />
      <BlockingOverlay active={quoting} />
    </div>
  );
  const veil = busy ? (
    <div className={styles.veil}>
      <BlockingOverlay active message={BUSY_MESSAGE} />
    </div>
  ) : null;

  if (context === 'checkout') {
    return (
      <section className={styles.checkout} aria-labelledby="express-checkout-title" hidden={!available} data-testid="express-checkout">
        <h2 id="express-checkout-title" className={styles.title}>
          {EXPRESS_CHECKOUT_TITLE}
        </h2>
        {messages}
        {button}
        <p className={styles.separator}>{SEPARATOR_TEXT}</p>
        {veil}
      </section>
    );
  }
  return (
    <div className={context === 'cart' ? styles.cart : styles.product} hidden={!available} data-testid="express-checkout">
      {messages}
      {button}
      {context === 'cart' && <p className={styles.separator}>{SEPARATOR_TEXT}</p>}
      {veil}
    </div>
  );
}

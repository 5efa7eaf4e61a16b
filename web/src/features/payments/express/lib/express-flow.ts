// The express checkout's flow, event by event of the provider's Express Checkout
// Element, as the original's express checkout runs it:
//
//   click                  the sheet opens with the lines and total the page shows; on a
//                          product page the product goes into the button's own cart
//                          first (wc_stripe_add_to_cart), on the cart and checkout pages
//                          the shopper's cart is noted as it is
//   shippingaddresschange  the rates for the wallet's address (wc_stripe_get_shipping_options)
//   shippingratechange     the rate chosen (wc_stripe_update_shipping_method)
//   confirm                the element's check, the payment method, the addresses made
//                          ready (wc_stripe_normalize_address), the order (Store API
//                          checkout with the express headers), then paying it as the
//                          checkout does (3-D Secure in place, else the thank-you page)
//   cancel                 nothing left behind: a product page's cart is abandoned, the
//                          shopper's gets its addresses and rates back
//
// The element's events must be answered quickly (a click within a second): the click
// answers at once and the calls that follow wait for what it started.
import type { ClickResolveDetails, Stripe, StripeElements, StripeExpressCheckoutElementClickEvent, StripeExpressCheckoutElementConfirmEvent, StripeExpressCheckoutElementShippingAddressChangeEvent, StripeExpressCheckoutElementShippingRateChangeEvent } from '@stripe/stripe-js';
import { toAppPath } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import type { PaymentOutcome } from '@/types/payment-binding';
import { PAYMENT_FAILED_MESSAGE, paymentErrorMessage } from '../../lib/payment-errors';
import { addToCart, getShippingOptions, normalizeAddress, placeExpressOrder, updateShippingMethod, type ExpressHttp, type PlacedExpressOrder, type ProductSelection } from '../api/express-calls';
import type { ExpressContext, ExpressSheet, ExpressShippingOption } from '../api/get-express-params';
import type { CartLocation } from '../api/restore-cart';
import { addressesOf, expressPaymentData, lineItemsOf, locationOf, openingShippingRates, shippingRatesOf, withNormalized } from './express-data';

/** The original's words when the product form is not ready to buy. */
export const SELECT_OPTIONS_MESSAGE = 'Please select your product options before proceeding.';
export const UNAVAILABLE_MESSAGE = 'Sorry, this product is unavailable. Please choose a different combination.';

/** What the sheet opens with: the lines and total the page shows, and whether it ships. */
export interface ExpressQuote {
  sheet: ExpressSheet;
  requestShipping: boolean;
  /** The product page's shipping line until the wallet gives an address. */
  pendingShipping?: ExpressShippingOption;
}

/** The product page's choice, as its add-to-cart button has it. */
export interface ProductChoice extends ProductSelection {
  /** The add-to-cart button is disabled: options to choose, or a choice that cannot be bought. */
  disabled: boolean;
  /** A variation is chosen (so a disabled button means it cannot be bought). */
  variationChosen: boolean;
}

export interface ExpressFlowUi {
  /** The page is blocked while a payment is under way. */
  busy: (on: boolean) => void;
  /** A message for the shopper above the button; null clears it. */
  notice: (message: string | null) => void;
  /** The payment is over: the page to go to, with a message to show there; settles once it shows. */
  leave: (redirect: string, message?: string) => void | Promise<void>;
  /** The shopper's cart changed (an order was placed from it, or it was put back). */
  cartChanged: () => void;
}

export interface ExpressFlowDeps {
  page: ExpressContext;
  http: ExpressHttp;
  stripe: Pick<Stripe, 'createPaymentMethod'>;
  elements: Pick<StripeElements, 'submit' | 'update'>;
  quote: () => ExpressQuote;
  /** The product page's choice, and why the shop cannot sell it as chosen (null when it can). */
  choice?: () => { selection: ProductChoice; problem: string | null };
  /** Where the shopper's cart is, and putting it back (the cart and checkout pages). */
  cart?: { read: () => Promise<CartLocation>; restore: (before: CartLocation) => Promise<unknown> };
  /** Pays a placed order as the checkout does (3-D Secure in place…). */
  complete: (placed: PlacedExpressOrder) => Promise<PaymentOutcome>;
  ui: ExpressFlowUi;
}

export interface ExpressFlow {
  click: (event: Pick<StripeExpressCheckoutElementClickEvent, 'resolve' | 'reject' | 'expressPaymentType'>) => void;
  shippingAddressChange: (event: Pick<StripeExpressCheckoutElementShippingAddressChangeEvent, 'address' | 'resolve' | 'reject'>) => Promise<void>;
  shippingRateChange: (event: Pick<StripeExpressCheckoutElementShippingRateChangeEvent, 'shippingRate' | 'resolve' | 'reject'>) => Promise<void>;
  confirm: (event: Pick<StripeExpressCheckoutElementConfirmEvent, 'billingDetails' | 'shippingAddress' | 'expressPaymentType' | 'paymentFailed'>) => Promise<void>;
  cancel: () => Promise<void>;
}

/** The message for a failed step: the shop's or the provider's words, else the fallback. */
export function expressErrorMessage(error: unknown): string {
  return paymentErrorMessage(error, { genericErrorMessage: PAYMENT_FAILED_MESSAGE }, { confirming: true });
}

/** A step the sheet waits on failed before its call could be made; its words are shown too. */
class PreparationFailed extends Error {
  constructor(readonly reason: unknown) {
    super('The express checkout could not prepare the cart.');
    this.name = 'PreparationFailed';
  }
}

export function expressFlow(deps: ExpressFlowDeps): ExpressFlow {
  const { page, http, ui } = deps;
  const isProductPage = page === 'product';
  /** What the click started: the product in the button's cart, or the shopper's cart noted. */
  let prepared: Promise<CartLocation | null> = Promise.resolve(null);
  /** The sheet changed the shopper's cart (its address, its rate). */
  let touched = false;
  /** A payment is under way, or done: the page is being left. */
  let paying = false;

  const ready = () =>
    prepared.catch((reason: unknown) => {
      throw new PreparationFailed(reason);
    });

  const showPreparationFailure = (error: unknown) => {
    if (error instanceof PreparationFailed) ui.notice(expressErrorMessage(error.reason));
  };

  return {
    click(event) {
      if (paying) {
        event.reject();
        return;
      }
      if (isProductPage && deps.choice) {
        const { selection, problem } = deps.choice();
        const refused = selection.disabled ? (selection.variationChosen ? UNAVAILABLE_MESSAGE : SELECT_OPTIONS_MESSAGE) : problem;
        if (refused) {
          ui.notice(refused);
          event.reject();
          return;
        }
        const { productId, quantity, attributes } = selection;
        prepared = addToCart(http, { productId, quantity, attributes }).then((answer) => {
          if (answer.result !== 'success') throw new Error(PAYMENT_FAILED_MESSAGE);
          return null;
        });
      } else {
        // Noted before the sheet changes anything; a cart that cannot be read is not put back.
        prepared = deps.cart ? deps.cart.read().catch(() => null) : Promise.resolve(null);
      }
      // A rejection nobody waits for yet is not an error of the page.
      prepared.catch(() => {});
      touched = false;
      ui.notice(null);
      const { sheet, requestShipping, pendingShipping } = deps.quote();
      const details: ClickResolveDetails = {
        lineItems: lineItemsOf(sheet.displayItems),
        emailRequired: true,
        phoneNumberRequired: http.params.checkout.needs_payer_phone,
        shippingAddressRequired: requestShipping,
      };
      if (requestShipping) details.shippingRates = openingShippingRates(pendingShipping, sheet.displayItems);
      event.resolve(details);
    },

    async shippingAddressChange(event) {
      try {
        await ready();
        touched = true;
        const answer = await getShippingOptions(http, locationOf(event.address), isProductPage);
        if (answer.result !== 'success' || !answer.shipping_options?.length) {
          event.reject();
          return;
        }
        deps.elements.update({ amount: answer.total.amount });
        event.resolve({ shippingRates: shippingRatesOf(answer.shipping_options), lineItems: lineItemsOf(answer.displayItems) });
      } catch (error) {
        showPreparationFailure(error);
        event.reject();
      }
    },

    async shippingRateChange(event) {
      try {
        await ready();
        touched = true;
        const answer = await updateShippingMethod(http, [event.shippingRate.id], isProductPage);
        if (answer.result !== 'success') {
          event.reject();
          return;
        }
        deps.elements.update({ amount: answer.total.amount });
        event.resolve({ lineItems: lineItemsOf(answer.displayItems) });
      } catch (error) {
        showPreparationFailure(error);
        event.reject();
      }
    },

    async confirm(event) {
      paying = true;
      ui.busy(true);
      const abort = (message: string) => {
        try {
          event.paymentFailed({ reason: 'fail' });
        } catch {
          // The sheet may be gone already; the page says what happened.
        }
        paying = false;
        ui.busy(false);
        ui.notice(message || PAYMENT_FAILED_MESSAGE);
      };
      /** The shopper's cart became an order (placed, or waiting for payment): the next page shows it. */
      const leave = async (redirect: string, message?: string) => {
        // A navigation that fails leaves the shopper where they are: nothing more to do here.
        await Promise.resolve(ui.leave(redirect, message)).catch(() => {});
        if (!isProductPage) ui.cartChanged();
      };
      try {
        await ready();
        const submitted = await deps.elements.submit();
        if (submitted.error) {
          abort(submitted.error.message || expressErrorMessage(submitted.error));
          return;
        }
        const created = await deps.stripe.createPaymentMethod({ elements: deps.elements as StripeElements });
        if (created.error) {
          abort(expressErrorMessage(created.error));
          return;
        }
        const sent = addressesOf(event);
        // The checkout makes an express payment's addresses ready too: a failed call here is no reason to stop.
        const addresses = withNormalized(sent, await normalizeAddress(http, sent).catch(() => null));
        const placed = await placeExpressOrder(http, {
          ...addresses,
          customer_note: '',
          payment_method: 'stripe',
          payment_data: expressPaymentData(created.paymentMethod.id, event.expressPaymentType),
        });
        const outcome = await deps.complete(placed);
        if (outcome.ok) await leave(outcome.redirect);
        else if (outcome.redirect) await leave(outcome.redirect, outcome.message);
        else abort(outcome.message);
      } catch (error) {
        const reason = error instanceof PreparationFailed ? error.reason : error;
        // Declined: the shopper's cart became an order that waits for payment on its own page, as at checkout.
        const payUrl = reason instanceof ApiError ? reason.data?.pay_url : undefined;
        if (!isProductPage && typeof payUrl === 'string' && payUrl) {
          try {
            event.paymentFailed({ reason: 'fail' });
          } catch {
            // As above.
          }
          await leave(toAppPath(payUrl), expressErrorMessage(reason));
          return;
        }
        abort(expressErrorMessage(reason));
      }
    },

    async cancel() {
      if (paying || isProductPage || !deps.cart) return;
      const before = await prepared.catch(() => null);
      if (!before || !touched) return;
      touched = false;
      try {
        await deps.cart.restore(before);
      } catch {
        // The cart keeps the wallet's address; the checkout asks for the shopper's own anyway.
      }
      ui.cartChanged();
    },
  };
}

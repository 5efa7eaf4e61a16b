// The checkout form's behaviour: its values, the field checks (on input, change,
// focusout and after a failed submit), the order review refreshes and placing the
// order (idle → processing → the order page, or back to idle with the errors). A
// gateway with a payment form (the card) takes part through its PaymentSubmission:
// it prepares the payment data before the order call and reads the answer after.
// The newsletter box, when the app offers one, signs the shopper up once the order
// is placed, in the background.
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { raiseCheckoutError } from '@/components/payment/payment-methods';
import { BUSY_MESSAGE } from '@/components/ui/blocking-overlay';
import { settings, type PaymentGateway } from '@/config/settings';
import { ApiError, NETWORK_ERROR_MESSAGE } from '@/lib/api-client';
import { type AddressField, type AddressFieldKey, type AddressKind, type AddressLocale, addressFields, LOCATION_KEYS } from '@/lib/address-locale';
import { leavePage } from '@/lib/leave-page';
import { NOTICE_SCROLL, scrollToElement } from '@/lib/scroll';
import type { CartBinding } from '@/types/cart-binding';
import type { PaymentBinding, PaymentDataItem, PaymentNoticeState, PaymentSubmission } from '@/types/payment-binding';
import type { FieldStatus, FieldStatuses } from '@/types/field-status';
import type { Cart } from '@/types/store-api';
import { applyCoupon, COUPON_APPLIED, type CouponOutcome } from '../api/apply-coupon';
import { checkoutErrorText, placeOrder } from '../api/place-order';
import { COUPON_REMOVED, removeCoupon } from '../api/remove-coupon';
import { selectShippingRate } from '../api/select-shipping-rate';
import { updateCustomer } from '../api/update-customer';
import { failureNotices, fieldErrorsOf } from '../lib/checkout-failure';
import {
  accountMode as accountModeOf,
  checkoutPayload,
  type CheckoutValues,
  chosenRates,
  customerAddresses,
  initialValues,
  locationComplete,
  type NewsletterSignUp,
  newsletterSubscriber,
} from '../lib/checkout-form';
import type { ServerNotice } from '../lib/notices';
import { RefreshScheduler } from '../lib/refresh-scheduler';
import { checkMessage, checkValue, type FieldRules, rulesOf } from '../lib/validate';

export interface PageNotice {
  id: number;
  tone: 'error' | 'success' | 'info';
  text: string;
}

interface Checkable {
  id: string;
  title: string;
  rules: FieldRules;
  value: string | boolean;
}

/** The gateways the cart can be paid with, in the shop's order. */
export function availableGateways(cart: Cart | undefined) {
  const allowed = cart?.payment_methods;
  const gateways = settings.checkout.gateways;
  return allowed && allowed.length > 0 ? gateways.filter((gateway) => allowed.includes(gateway.id)) : gateways;
}

function codeOfServerMessage(text: string): string {
  if (/required/i.test(text)) return 'required';
  if (/e-?mail/i.test(text)) return 'email';
  if (/phone/i.test(text)) return 'phone';
  return 'server';
}

const messageOf = (error: unknown) => (error instanceof ApiError ? error.message : NETWORK_ERROR_MESSAGE);

export function useCheckoutForm(
  binding: CartBinding,
  locale: AddressLocale,
  onPlaced: () => void = () => {},
  payments?: PaymentBinding,
  newsletterSignUp?: NewsletterSignUp,
) {
  const navigate = useNavigate();
  const cart = binding.cart;
  const offered = useMemo(() => availableGateways(cart), [cart]);
  const accountMode = accountModeOf();
  const termsShown = settings.checkout.terms !== null;
  const paymentNeeded = cart?.needs_payment !== false;

  const [values, setValues] = useState<CheckoutValues>(() => initialValues(cart, offered.map((gateway) => gateway.id)));
  const [paying, setPaying] = useState(false);
  const submissions = useRef(new Map<string, PaymentSubmission>());
  const onSubmission = useCallback((gatewayId: string, submission: PaymentSubmission | null) => {
    if (submission) submissions.current.set(gatewayId, submission);
    else submissions.current.delete(gatewayId);
  }, []);
  const [statuses, setStatuses] = useState<FieldStatuses>({});
  const [refreshing, setRefreshing] = useState(false);
  const [refreshError, setRefreshError] = useState<string | null>(null);
  // The last refresh failed: the cart's totals are for an earlier address, not the one on screen.
  const [reviewStale, setReviewStale] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [submitNotices, setSubmitNotices] = useState<ServerNotice[]>([]);
  const [pageNotice, setPageNotice] = useState<PageNotice | null>(null);
  const [scrollRequest, setScrollRequest] = useState(0);

  const formRef = useRef<HTMLFormElement>(null);
  const noticeGroupRef = useRef<HTMLDivElement>(null);
  const pageNoticeRef = useRef<HTMLDivElement>(null);
  const processingRef = useRef(false);
  const noticeId = useRef(0);
  // The latest values and cart for callbacks that outlive a render (timers, requests).
  const latest = useRef({ values, binding });
  latest.current = { values, binding };

  const fieldsFor = useCallback(
    (kind: AddressKind, current: CheckoutValues) => addressFields(locale, current[kind].country ?? '', kind),
    [locale],
  );
  const billingCountry = values.billing.country ?? '';
  const shippingCountry = values.shipping.country ?? '';
  // A method with a country list shows only for a billing country on it (checked again as the country changes).
  const gateways = useMemo(
    () => (payments ? offered.filter((gateway) => payments.isAvailable(gateway.id, billingCountry)) : offered),
    [offered, payments, billingCountry],
  );
  const billingFields = useMemo(() => addressFields(locale, billingCountry, 'billing'), [locale, billingCountry]);
  const shippingFields = useMemo(() => addressFields(locale, shippingCountry, 'shipping'), [locale, shippingCountry]);

  // If the chosen payment method is no longer offered (the cart changed), fall back to the first.
  useEffect(() => {
    if (gateways.length > 0 && !gateways.some((gateway) => gateway.id === values.paymentMethod)) {
      setValues((current) => ({ ...current, paymentMethod: gateways[0]!.id }));
    }
  }, [gateways, values.paymentMethod]);

  // ---- Field checks ----------------------------------------------------------------

  /** Every field that can be checked right now, with its rules and value. */
  const checkables = useCallback(
    (current: CheckoutValues): Checkable[] => {
      const list: Checkable[] = [];
      const address = (kind: AddressKind, fields: AddressField[]) => {
        for (const field of fields) {
          if (field.control === 'state-hidden') continue;
          list.push({ id: field.id, title: `${kind === 'billing' ? 'Billing' : 'Shipping'} ${field.label}`, rules: rulesOf(field), value: current[kind][field.key] ?? '' });
        }
      };
      address('billing', fieldsFor('billing', current));
      if (current.shipToDifferentAddress) address('shipping', fieldsFor('shipping', current));
      if (accountMode === 'required' || (accountMode === 'optional' && current.createAccount)) {
        list.push({ id: 'account_password', title: 'Create account password', rules: { required: true }, value: current.accountPassword });
      }
      if (termsShown) list.push({ id: 'terms', title: 'Terms and conditions', rules: { required: true }, value: current.terms });
      return list;
    },
    [fieldsFor, accountMode, termsShown],
  );

  // The ids of the fields on screen, for reading the server's verdicts; kept in a ref
  // so the refresh (created once) always sees the current form.
  const shownFieldsRef = useRef((current: CheckoutValues) => new Set(checkables(current).map((item) => item.id)));
  shownFieldsRef.current = (current: CheckoutValues) => new Set(checkables(current).map((item) => item.id));

  const statusOf = (item: Checkable): FieldStatus => {
    const code = checkValue(item.value, item.rules);
    if (!code) return { valid: true };
    const message = item.id === 'terms' ? 'Please read and accept the terms and conditions to proceed with your order.' : checkMessage(code, item.title);
    return { valid: false, code, message };
  };

  /** The "change" / "focusout" / "validate" check of one field. */
  const validateField = useCallback(
    (id: string, current: CheckoutValues) => {
      const item = checkables(current).find((candidate) => candidate.id === id);
      setStatuses((previous) => ({ ...previous, [id]: item ? statusOf(item) : undefined }));
    },
    [checkables],
  );

  /** Typing clears the field's earlier verdict, inline and in the notice group. */
  const clearStatus = useCallback((...ids: string[]) => {
    setStatuses((previous) => {
      if (ids.every((id) => previous[id] === undefined)) return previous;
      const next = { ...previous };
      for (const id of ids) delete next[id];
      return next;
    });
    setSubmitNotices((previous) =>
      previous.some((notice) => notice.fieldId && ids.includes(notice.fieldId))
        ? previous.filter((notice) => !notice.fieldId || !ids.includes(notice.fieldId))
        : previous,
    );
  }, []);

  // ---- Order review refresh ----------------------------------------------------------

  const refresh = useCallback(async (signal: AbortSignal) => {
    setRefreshing(true);
    const { values: sent } = latest.current;
    const choices = { ...sent.shippingChoices };
    try {
      let updated = await updateCustomer(customerAddresses(sent), signal);
      for (const [index, rateId] of Object.entries(choices)) {
        const pkg = updated.shipping_rates?.[Number(index)];
        const offered = pkg?.shipping_rates.some((rate) => rate.rate_id === rateId);
        const alreadySelected = pkg?.shipping_rates.some((rate) => rate.rate_id === rateId && rate.selected);
        if (pkg && offered && !alreadySelected) updated = await selectShippingRate(pkg.package_id, rateId, signal);
      }
      if (signal.aborted) return;
      latest.current.binding.setCart(updated);
      setRefreshError(null);
      setReviewStale(false);
      // Picks made while this ran stay pending for the next refresh.
      setValues((current) => {
        const pending = { ...current.shippingChoices };
        for (const [index, rateId] of Object.entries(choices)) if (pending[Number(index)] === rateId) delete pending[Number(index)];
        return { ...current, shippingChoices: pending };
      });
    } catch (error) {
      if (signal.aborted) return;
      setReviewStale(true);
      // A field the server finds at fault is marked with its words; anything else is a notice.
      const fields = fieldErrorsOf(error, shownFieldsRef.current(latest.current.values));
      if (Object.keys(fields).length > 0) {
        setRefreshError(null);
        setStatuses((previous) => {
          const next = { ...previous };
          for (const [id, message] of Object.entries(fields)) next[id] = { valid: false, code: codeOfServerMessage(message), message };
          return next;
        });
      } else {
        setRefreshError(messageOf(error));
      }
    } finally {
      if (!signal.aborted) setRefreshing(false);
    }
  }, []);

  const scheduler = useMemo(() => new RefreshScheduler(refresh), [refresh]);

  useEffect(() => {
    // Price the order for the addresses the form starts with.
    scheduler.afterChange();
    return () => scheduler.cancel();
  }, [scheduler]);

  // ---- Events --------------------------------------------------------------------------

  const update = useCallback((change: (current: CheckoutValues) => CheckoutValues) => {
    const next = change(latest.current.values);
    latest.current = { ...latest.current, values: next };
    setValues(next);
    return next;
  }, []);

  const addressEvents = useCallback((kind: AddressKind) => ({
    onInput: (key: AddressFieldKey, value: string) => {
      update((current) => ({ ...current, [kind]: { ...current[kind], [key]: value } }));
      clearStatus(`${kind}_${key}`);
      if (LOCATION_KEYS.has(key)) {
        scheduler.afterTyping(() => {
          const now = latest.current.values;
          return locationComplete(fieldsFor(kind, now), now[kind]);
        });
      }
    },
    onChange: (key: AddressFieldKey, value: string) => {
      const next = update((current) => {
        const address = { ...current[kind], [key]: value };
        // A new country has other states (or none): the old one no longer applies.
        if (key === 'country') address.state = '';
        return { ...current, [kind]: address };
      });
      if (key === 'country') clearStatus(`${kind}_state`, `${kind}_postcode`, `${kind}_city`);
      validateField(`${kind}_${key}`, next);
      if (LOCATION_KEYS.has(key)) scheduler.afterChange();
    },
    onBlur: (key: AddressFieldKey) => validateField(`${kind}_${key}`, latest.current.values),
  }), [update, clearStatus, scheduler, fieldsFor, validateField]);

  const billingEvents = useMemo(() => addressEvents('billing'), [addressEvents]);
  const shippingEvents = useMemo(() => addressEvents('shipping'), [addressEvents]);

  const setShipToDifferentAddress = (ship: boolean) => {
    update((current) => ({ ...current, shipToDifferentAddress: ship }));
    scheduler.afterChange();
  };

  const chooseShippingRate = (packageIndex: number, rateId: string) => {
    update((current) => ({ ...current, shippingChoices: { ...current.shippingChoices, [packageIndex]: rateId } }));
    scheduler.afterChange();
  };

  const choosePaymentMethod = (id: string) => {
    update((current) => ({ ...current, paymentMethod: id }));
    scheduler.afterChange();
  };

  const setOrderComments = (text: string) => update((current) => ({ ...current, orderComments: text }));

  const setCreateAccount = (create: boolean) => {
    update((current) => ({ ...current, createAccount: create }));
    if (!create) clearStatus('account_password');
  };

  const accountPasswordEvents = {
    onInput: (password: string) => {
      update((current) => ({ ...current, accountPassword: password }));
      clearStatus('account_password');
    },
    onBlur: () => validateField('account_password', latest.current.values),
  };

  const setTerms = (accepted: boolean) => {
    const next = update((current) => ({ ...current, terms: accepted }));
    validateField('terms', next);
  };

  const setNewsletter = (subscribe: boolean) => update((current) => ({ ...current, newsletter: subscribe }));

  // ---- Coupons ---------------------------------------------------------------------------

  const notify = (tone: PageNotice['tone'], text: string) => {
    noticeId.current += 1;
    setPageNotice({ id: noticeId.current, tone, text });
  };

  const submitCoupon = async (code: string): Promise<CouponOutcome> => {
    try {
      latest.current.binding.setCart(await applyCoupon(code));
    } catch (error) {
      return { ok: false, message: messageOf(error) };
    }
    notify('success', COUPON_APPLIED);
    return { ok: true, message: COUPON_APPLIED };
  };

  const dropCoupon = async (code: string) => {
    try {
      latest.current.binding.setCart(await removeCoupon(code));
      notify('success', COUPON_REMOVED);
    } catch (error) {
      notify('error', messageOf(error));
      await latest.current.binding.refresh();
    }
  };

  // ---- Placing the order -------------------------------------------------------------------

  const goTo = (url: string, paymentNotice?: string) => {
    const target = new URL(url, window.location.href);
    const state: PaymentNoticeState | undefined = paymentNotice ? { paymentNotice } : undefined;
    if (target.origin === window.location.origin) navigate(target.pathname + target.search + target.hash, { state });
    else leavePage(target.href);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // A second submit while the first is processing is ignored.
    if (processingRef.current) return;
    processingRef.current = true;
    setProcessing(true);
    setSubmitNotices([]);
    setPageNotice(null);
    // The order is priced on the server from what is sent now; a waiting refresh is moot.
    scheduler.cancel();
    setRefreshing(false);

    const current = latest.current.values;
    const fail = (notices: ServerNotice[], statuses: FieldStatuses) => {
      processingRef.current = false;
      setProcessing(false);
      setPaying(false);
      setSubmitNotices(notices);
      setStatuses(statuses);
      setScrollRequest((count) => count + 1);
    };

    // The explicit "validate" of every field: the order goes only when they all pass.
    const checked = checkables(current);
    const next: FieldStatuses = {};
    for (const item of checked) next[item.id] = statusOf(item);
    const own: ServerNotice[] = checked.flatMap((item) => {
      const status = next[item.id];
      return status && !status.valid ? [{ tone: 'error' as const, text: status.message, fieldId: item.id }] : [];
    });
    if (own.length > 0) {
      fail(own, next);
      return;
    }

    // The chosen gateway's payment form, if it has one: the order goes through it.
    const withBox = paymentNeeded && payments?.hasBox(current.paymentMethod) === true;
    const submission = withBox ? submissions.current.get(current.paymentMethod) : undefined;
    /** A payment that failed: its message in the notice area, the fields checked again, the event raised. */
    const failPayment = (message: string) => {
      fail(message ? [{ tone: 'error', text: message, fieldId: null }] : [], next);
      raiseCheckoutError(formRef.current, message);
    };
    if (withBox && !submission) {
      failPayment(checkoutErrorText());
      return;
    }
    let paymentData: PaymentDataItem[] = [];
    if (submission) {
      setPaying(true);
      const prepared = await submission.prepare();
      if (!prepared.ok) {
        failPayment(prepared.message);
        return;
      }
      paymentData = prepared.paymentData;
    }

    try {
      // Rates picked since the last refresh go to the cart first: the order takes the cart's.
      const cartNow = latest.current.binding.cart;
      const packages = cartNow?.shipping_rates ?? [];
      const rates = chosenRates(packages, current.shippingChoices);
      for (const [index, rateId] of rates.entries()) {
        const pkg = packages[index];
        if (pkg && rateId && !pkg.shipping_rates.some((rate) => rate.rate_id === rateId && rate.selected)) {
          await selectShippingRate(pkg.package_id, rateId);
        }
      }
      const placed = await placeOrder({ ...checkoutPayload(current, { accountMode, paymentNeeded }), payment_data: paymentData });
      onPlaced();
      // Sent once the order stands; the order neither waits for it nor hears of it.
      const subscriber = newsletterSubscriber(current);
      if (subscriber && newsletterSignUp) newsletterSignUp(subscriber);
      // The order emptied the cart: the header's mini-cart must show it.
      void latest.current.binding.refresh();
      if (!submission) {
        goTo(placed.payment_result.redirect_url);
        return;
      }
      // The payment may need the shopper (3-D Secure) before the order is paid.
      const outcome = await submission.complete(placed);
      if (outcome.ok) goTo(outcome.redirect);
      else if (outcome.redirect) goTo(outcome.redirect, outcome.message);
      else failPayment(outcome.message);
    } catch (error) {
      const refusal = submission?.refusal(error);
      if (refusal) {
        if (refusal.redirect) {
          // Declined: the cart became an order that waits for payment on its own page.
          onPlaced();
          goTo(refusal.redirect, refusal.message);
          void latest.current.binding.refresh();
        } else {
          failPayment(refusal.message);
        }
        return;
      }
      const shown = new Set(checked.map((item) => item.id));
      const notices = failureNotices(error, shown, current.shipToDifferentAddress ? null : 'shipping_');
      const shownNotices = notices.length > 0 ? notices : [{ tone: 'error' as const, text: checkoutErrorText(), fieldId: null }];
      // The server's words on top of the browser's verdicts; the reason stays the browser's when it found one too.
      for (const notice of shownNotices) {
        if (!notice.fieldId) continue;
        const mine = next[notice.fieldId];
        next[notice.fieldId] = { valid: false, code: mine && !mine.valid ? mine.code : codeOfServerMessage(notice.text), message: notice.text };
      }
      fail(shownNotices, next);
      // Stock, coupons and shipping may have changed the totals: price the order again.
      if (!shownNotices.some((notice) => notice.fieldId)) {
        scheduler.afterChange();
        void latest.current.binding.refresh();
      }
    }
  };

  // A new notice above the form (a coupon applied or removed) is brought into view.
  useEffect(() => {
    if (pageNotice && pageNoticeRef.current) scrollToElement(pageNoticeRef.current, NOTICE_SCROLL);
  }, [pageNotice]);

  useEffect(() => {
    if (scrollRequest === 0) return;
    if (noticeGroupRef.current) scrollToElement(noticeGroupRef.current, NOTICE_SCROLL);
    const firstInvalid = formRef.current?.querySelector<HTMLElement>(
      '.woocommerce-invalid input:not([type="hidden"]), .woocommerce-invalid select, .woocommerce-invalid textarea',
    );
    firstInvalid?.focus({ preventScroll: true });
  }, [scrollRequest]);

  /** The payment form under a gateway's radio (the card's), with what it needs of the checkout. */
  const renderPaymentBox = payments
    ? (gateway: PaymentGateway, selected: boolean): ReactNode =>
        payments.renderBox({
          gatewayId: gateway.id,
          selected,
          billing: values.billing,
          amount: cart ? Number(cart.totals.total_price) : null,
          createAccount: accountMode === 'required' || (accountMode === 'optional' && values.createAccount),
          disabled: processing,
          onSubmission,
        })
    : undefined;

  return {
    values,
    statuses,
    billingFields,
    shippingFields,
    gateways,
    accountMode,
    termsShown,
    paymentNeeded,
    refreshing,
    refreshError,
    reviewStale,
    processing,
    /** The busy overlay's message while a payment is being made. */
    busyMessage: processing && paying ? BUSY_MESSAGE : undefined,
    renderPaymentBox,
    submitNotices,
    pageNotice,
    pageNoticeRef,
    dismissPageNotice: () => setPageNotice(null),
    formRef,
    noticeGroupRef,
    billingEvents,
    shippingEvents,
    setShipToDifferentAddress,
    chooseShippingRate,
    choosePaymentMethod,
    setOrderComments,
    setCreateAccount,
    accountPasswordEvents,
    setTerms,
    /** Whether the form offers the newsletter box. */
    newsletterOffered: newsletterSignUp !== undefined,
    setNewsletter,
    submitCoupon,
    dropCoupon,
    submit,
  };
}

export type CheckoutForm = ReturnType<typeof useCheckoutForm>;

// The card gateway's box under its radio: the shopper's saved cards (or a new one),
// the provider's Payment Element, the save option, and what went wrong. The server
// renders it with the element's place kept (the element is the browser's only); the
// element's code loads when the box is first chosen. The box registers the form's
// PaymentSubmission: the checkout and the order-pay page submit through it.
import type { Appearance, StripePaymentElementOptions } from '@stripe/stripe-js';
import { useCallback, useEffect, useRef, useState, type ComponentType, type Ref } from 'react';
import { FormRow, TextInput } from '@/components/ui/form-field';
import type { PaymentBillingAddress, PaymentBoxProps, PaymentSubmission } from '@/types/payment-binding';
import { saveAppearance } from '../api/save-appearance';
import type { PaymentPageSettings, SavedPaymentMethod } from '../api/get-page-settings';
import { backgroundBehind, buildAppearance, pageFontSources, readStyles } from '../lib/appearance';
import {
  asMethodType,
  CASH_APP_NOTICE,
  elementMode,
  hiddenBillingFields,
  methodTypeOf,
  type PaymentMethodType,
  type PaymentPage,
  showsCashAppNotice,
  showsSaveOption,
  termsOption,
} from '../lib/method-rules';
import { completePayment, paymentRefusal, preparePayment, retryPageOf, savePaymentMethod, type PaymentState } from '../lib/payment-flow';
import { loadFailedMessage } from '../lib/payment-errors';
import type { ElementHandles, PaymentElementProps } from './payment-element';
import styles from './payment-box.module.css';

export const SAVE_PAYMENT_LABEL = 'Save payment information to my account for future purchases.';
export const NEW_PAYMENT_METHOD_LABEL = 'Use a new payment method';

type Frame = ComponentType<PaymentElementProps>;

/**
 * The element's code, fetched once for the page view. The server never asks (it keeps
 * the element's place); null when the chunk could not be fetched.
 */
let frameLoad: Promise<Frame | null> | null = null;
function loadFrame(): Promise<Frame | null> {
  if (import.meta.env.SSR) return Promise.resolve(null);
  frameLoad ??= import('./payment-element').then(
    (module) => module.default,
    () => {
      frameLoad = null;
      return null;
    },
  );
  return frameLoad;
}

/** The provider for a confirmation the element never got to (a saved card that needs 3-D Secure). */
const loadProviderLater = (pageSettings: PaymentPageSettings) =>
  import.meta.env.SSR ? Promise.resolve(null) : import('../lib/load-stripe').then((module) => module.loadProvider(pageSettings));

// The look is measured once per page view and saved once (when the settings had none).
let measuredAppearance: Appearance | null = null;
let appearanceSaved = false;

function measureAppearance(probe: HTMLElement, oneCheckout: boolean): Appearance {
  const element = (name: string) => probe.querySelector(`[data-probe="${name}"]`) ?? probe;
  return buildAppearance(
    {
      input: readStyles(element('input')),
      invalidInput: readStyles(element('invalid')),
      label: readStyles(element('label')),
      background: backgroundBehind(probe.parentElement),
    },
    { oneCheckout },
  );
}

/** Samples of the shop's own fields, drawn for a moment to read their computed styles. */
function AppearanceProbe({ probeRef }: { probeRef: Ref<HTMLDivElement> }) {
  return (
    <div ref={probeRef} className={styles.probe} aria-hidden="true" inert>
      <FormRow fieldId="wc-stripe-probe-valid" label={<span data-probe="label">Card</span>} markOptional={false}>
        <TextInput id="wc-stripe-probe-valid" data-probe="input" tabIndex={-1} readOnly />
      </FormRow>
      <FormRow fieldId="wc-stripe-probe-invalid" status={{ valid: false, code: 'required', message: '' }}>
        <TextInput id="wc-stripe-probe-invalid" data-probe="invalid" tabIndex={-1} readOnly />
      </FormRow>
    </div>
  );
}

export function savedMethodLabel(method: Pick<SavedPaymentMethod, 'brand' | 'last4' | 'exp_month' | 'exp_year' | 'type'>): string {
  const brand = method.brand ? method.brand.charAt(0).toUpperCase() + method.brand.slice(1) : method.type;
  const expiry = method.exp_month && method.exp_year ? ` (expires ${String(method.exp_month).padStart(2, '0')}/${String(method.exp_year).slice(-2)})` : '';
  return `${brand} ending in ${method.last4}${expiry}`;
}

export interface PaymentBoxOwnProps extends PaymentBoxProps {
  pageSettings: PaymentPageSettings;
  page: PaymentPage;
}

/** The fields of a page's own billing form: null where the page has none (the element asks). */
function billingFor(page: PaymentPage, billing: PaymentBillingAddress): PaymentBillingAddress | null {
  return page === 'add-payment-method' ? null : billing;
}

/**
 * The room kept for a method's element before it mounts, so nothing moves once it
 * does: the card's fields by default; a line of text for the methods that ask for
 * nothing here (they leave for the bank or open a wallet); a field or two for the rest.
 */
const ELEMENT_HEIGHT: Partial<Record<string, 'elementShort' | 'elementMedium'>> = {
  ideal: 'elementShort',
  bancontact: 'elementShort',
  eps: 'elementShort',
  giropay: 'elementShort',
  sofort: 'elementShort',
  alipay: 'elementShort',
  klarna: 'elementShort',
  affirm: 'elementShort',
  afterpay_clearpay: 'elementShort',
  wechat_pay: 'elementShort',
  cashapp: 'elementShort',
  p24: 'elementMedium',
  blik: 'elementMedium',
  boleto: 'elementMedium',
  oxxo: 'elementMedium',
  multibanco: 'elementMedium',
};

export function PaymentBox({ pageSettings, page, gatewayId, selected, billing, amount, createAccount, disabled, onSubmission }: PaymentBoxOwnProps) {
  const type: PaymentMethodType = methodTypeOf(gatewayId) ?? 'card';
  const config = pageSettings.paymentMethodsConfig[type];
  const title = config?.title ?? pageSettings.title;
  const total = amount ?? pageSettings.cartTotal;
  const oneCheckout = pageSettings.isOCEnabled;

  const savedMethods =
    page === 'checkout' || page === 'order-pay'
      ? (pageSettings.savedPaymentMethods ?? []).filter((method) => method.gateway === gatewayId && method.type === type)
      : [];
  const [choice, setChoice] = useState<number | 'new'>(() => savedMethods.find((method) => method.is_default)?.id ?? savedMethods[0]?.id ?? 'new');
  const [saveNew, setSaveNew] = useState(false);
  const [blikCode, setBlikCode] = useState('');
  const [pickedType, setPickedType] = useState<string>(type);
  // The element is asked for once the box is first chosen, in the browser.
  const [wanted, setWanted] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);
  const [appearance, setAppearance] = useState<Appearance | null>(() => pageSettings.appearance ?? measuredAppearance);
  const [fonts, setFonts] = useState<{ cssSrc: string }[]>([]);
  const [handles, setHandles] = useState<ElementHandles | null>(null);
  const [Frame, setFrame] = useState<Frame | null>(null);
  const probeRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (selected) setWanted(true);
  }, [selected]);

  useEffect(() => {
    if (!wanted) return;
    let current = true;
    void loadFrame().then((loaded) => {
      if (!current) return;
      if (loaded) setFrame(() => loaded);
      else setLoadFailed(true);
    });
    return () => {
      current = false;
    };
  }, [wanted]);

  useEffect(() => {
    if (!wanted) return;
    setFonts(pageFontSources());
    if (appearance || !probeRef.current) return;
    const measured = measureAppearance(probeRef.current, oneCheckout);
    measuredAppearance = measured;
    setAppearance(measured);
    if (!pageSettings.appearance && !appearanceSaved) {
      appearanceSaved = true;
      saveAppearance(pageSettings, measured).catch(() => {
        // Measured again on a later page; nothing the shopper needs to know.
      });
    }
  }, [wanted, appearance, oneCheckout, pageSettings]);

  const useNew = choice === 'new';
  const saveShown =
    useNew &&
    showsSaveOption(type, config, {
      page,
      isLoggedIn: pageSettings.isLoggedIn,
      isSignupOnCheckoutAllowed: pageSettings.isSignupOnCheckoutAllowed,
      createAccount,
    });
  const saveTicked = saveShown && saveNew;

  // ---- The submission the form sends through -----------------------------------------

  const state: PaymentState = {
    pageSettings,
    page,
    // In the one-checkout mode the element offers every method; the shopper's pick is the type.
    type: (oneCheckout && asMethodType(pickedType)) || type,
    stripe: handles?.stripe ?? null,
    elements: handles?.elements ?? null,
    loadFailed,
    savedMethodId: useNew ? null : choice,
    saveNew: saveTicked,
    billing: billingFor(page, billing),
    blikCode,
  };
  const stateRef = useRef(state);
  stateRef.current = state;

  useEffect(() => {
    let running = false;
    let paymentMethodToSave = '';
    // A second send while one runs is ignored: each payment goes once.
    const once = async <T,>(idle: T, run: () => Promise<T>): Promise<T> => {
      if (running) return idle;
      running = true;
      try {
        return await run();
      } finally {
        running = false;
      }
    };
    const submission: PaymentSubmission = {
      prepare: () =>
        once({ ok: false, message: '' } as const, async () => {
          const current = stateRef.current;
          const prepared = await preparePayment(current);
          paymentMethodToSave = prepared.ok && current.saveNew ? (prepared.paymentMethodId ?? '') : '';
          return prepared;
        }),
      complete: (placed) => {
        const current = stateRef.current;
        return completePayment(current, placed, {
          provider: () => loadProviderLater(current.pageSettings),
          paymentMethodToSave,
          retryPage: retryPageOf(placed, current.page),
        });
      },
      refusal: (error) => paymentRefusal(error, stateRef.current.pageSettings, stateRef.current.page),
      save: () => once({ ok: false, message: '', redirect: null } as const, () => savePaymentMethod(stateRef.current)),
    };
    onSubmission(gatewayId, submission);
    return () => onSubmission(gatewayId, null);
  }, [gatewayId, onSubmission]);

  // ---- The element's options -------------------------------------------------------------

  const onReady = useCallback((ready: ElementHandles) => setHandles(ready), []);
  const onLoadError = useCallback(() => setLoadFailed(true), []);
  const layout: StripePaymentElementOptions['layout'] =
    oneCheckout && pageSettings.OCLayout === 'tabs' ? { type: 'tabs' } : { type: 'accordion', defaultCollapsed: false, radios: 'never', spacedAccordionItems: false };
  const types = oneCheckout ? Object.keys(pageSettings.paymentMethodsConfig) : [type];
  const terms = termsOption(oneCheckout ? pageSettings.paymentMethodsConfig : config ? { [type]: config } : {}, {
    saveTicked,
    cartContainsSubscription: pageSettings.cartContainsSubscription,
    subscriptionRequiresManualRenewal: pageSettings.subscriptionRequiresManualRenewal,
  });
  // Billing fields the checkout's form has are not asked twice.
  const hiddenFields = page === 'checkout' ? hiddenBillingFields(pageSettings.enabledBillingFields ?? []) : null;

  const elementClass = `wc-stripe-upe-element ${styles.element} ${oneCheckout ? '' : (styles[ELEMENT_HEIGHT[type] ?? ''] ?? '')}`;
  const placeholder = <div className={elementClass} data-payment-method-type={type} aria-busy="true" />;
  const elementShown = !loadFailed && useNew;

  return (
    <div
      className={`wc-stripe-upe-element-box ${styles.box} ${disabled ? 'processing' : ''}`}
      data-payment-method-type={type}
      data-testid="payment-box"
    >
      {config?.description && <p className={styles.description}>{config.description}</p>}
      {savedMethods.length > 0 && (
        <fieldset className={styles.saved}>
          <legend className="visually-hidden">Saved payment methods</legend>
          <ul className={`woocommerce-SavedPaymentMethods wc-saved-payment-methods ${styles.savedList}`}>
            {savedMethods.map((method) => (
              <li key={method.id} className="woocommerce-SavedPaymentMethods-token">
                <label className={styles.radioRow}>
                  <input
                    type="radio"
                    id={`wc-${gatewayId}-payment-token-${method.id}`}
                    name={`wc-${gatewayId}-payment-token`}
                    value={String(method.id)}
                    checked={choice === method.id}
                    disabled={disabled}
                    onChange={() => setChoice(method.id)}
                  />
                  <span>{savedMethodLabel(method)}</span>
                </label>
              </li>
            ))}
            <li className="woocommerce-SavedPaymentMethods-new">
              <label className={styles.radioRow}>
                <input
                  type="radio"
                  id={`wc-${gatewayId}-payment-token-new`}
                  name={`wc-${gatewayId}-payment-token`}
                  value="new"
                  checked={useNew}
                  disabled={disabled}
                  onChange={() => setChoice('new')}
                />
                <span>{NEW_PAYMENT_METHOD_LABEL}</span>
              </label>
            </li>
          </ul>
        </fieldset>
      )}

      <div className={styles.newMethod} hidden={!useNew}>
        {showsCashAppNotice(type, total) && (
          <p className={`woocommerce-info ${styles.cashApp}`} data-testid="cash-app-limit-notice">
            {CASH_APP_NOTICE}
          </p>
        )}
        {type === 'blik' && (
          <FormRow fieldId={`wc-${gatewayId}-blik-code`} label="BLIK Code" required>
            <TextInput
              id={`wc-${gatewayId}-blik-code`}
              name="wc-stripe-blik-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={blikCode}
              disabled={disabled}
              onInput={(event) => setBlikCode(event.currentTarget.value)}
            />
          </FormRow>
        )}
        {loadFailed ? (
          <p className={`woocommerce-error ${styles.loadError}`} role="alert">
            {loadFailedMessage(title)}
          </p>
        ) : Frame && appearance ? (
          <Frame
            // One-checkout mode builds the element again when saving is switched (its terms and methods change).
            key={oneCheckout ? `save-${saveTicked}` : 'element'}
            pageSettings={pageSettings}
            types={types}
            mode={elementMode(total)}
            amount={total}
            appearance={appearance}
            fonts={fonts}
            hiddenFields={hiddenFields}
            terms={terms}
            layout={layout}
            className={elementClass}
            onReady={onReady}
            onLoadError={onLoadError}
            onTypeChange={setPickedType}
          />
        ) : (
          placeholder
        )}
        {wanted && !appearance && <AppearanceProbe probeRef={probeRef} />}
        {saveShown && elementShown && (
          <p className={`form-row woocommerce-SavedPaymentMethods-saveNew ${styles.save}`}>
            <label className={styles.radioRow}>
              <input
                type="checkbox"
                id={`wc-${gatewayId}-new-payment-method`}
                name={`wc-${gatewayId}-new-payment-method`}
                value="true"
                checked={saveNew}
                disabled={disabled}
                onChange={(event) => setSaveNew(event.currentTarget.checked)}
              />
              <span>{SAVE_PAYMENT_LABEL}</span>
            </label>
          </p>
        )}
      </div>
    </div>
  );
}

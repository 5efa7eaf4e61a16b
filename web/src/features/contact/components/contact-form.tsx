// A contact form, drawn from the shop's definition of it and sent as the original
// plugin's scripts send it. The page arrives with the form rendered; without scripts
// it posts as a plain multipart form to the feedback call. Once the page runs:
// - each field is checked against the form's schema when it changes, and the whole
//   form when it is sent; a field that breaks a rule (or that the server refuses) is
//   marked invalid and described by its message (`{unitTag}-ve-{field}`);
// - the send button waits until every required acceptance box stands as it must;
// - exclusive boxes untick one another, a free-text input opens with its choice, url
//   fields get the scheme a bare address lacks, counters follow what is typed;
// - the status (lib/form-status.ts) is on the form as `data-status` and a class, and
//   the answer's message is read out from a live region;
// - a message sent resets the form, and the refill call brings fresh quiz questions;
// - the page's other scripts hear of it all through the original's events
//   (lib/form-events.ts).
// A form placed inside another form cannot work, and says so instead.
import { useEffect, useReducer, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { settings } from '@/config/settings';
import { currentNonce } from '@/lib/api-client';
import { NOTICE_SCROLL, scrollToElement } from '@/lib/scroll';
import { SESSION_NONCE_SLOT } from '@/lib/session-nonce';
import { CONTACT_API_ROOT, OFFLINE_MESSAGE } from '../api/contact-api';
import { useContactForm, type ContactField, type ContactFormDefinition } from '../api/get-contact-form';
import { useContactFormSchema } from '../api/get-contact-form-schema';
import { refillContactForm } from '../api/refill-contact-form';
import { sendFeedback } from '../api/send-feedback';
import { MISSING_SETTINGS, hasSettings, missingSupport } from '../lib/browser-support';
import { feedbackPayload, fieldOfControl, hiddenFields, unitTagOf, type FormIdentity } from '../lib/feedback-payload';
import { exclusiveChoice, initialControls, readControls } from '../lib/form-controls';
import { eventDetail, outcomeEvent, sendFormEvent } from '../lib/form-events';
import { feedbackReducer, initialFeedbackState, isFailure, statusOf } from '../lib/form-status';
import { fieldsOf, normalizeUrl, validate, type SwvSchema } from '../lib/swv-rules';
import { ContactFieldRow, controlIdOf } from './contact-field';
import styles from './contact-form.module.css';

export const WRONG_PLACE_MESSAGE = 'This contact form is placed in the wrong place.';

/** The file types a file field takes, as its input's `accept`: the schema's list, else the definition's. */
function acceptOf(field: ContactField, schema: SwvSchema | null): string {
  const rule = schema?.rules.find((candidate) => candidate.rule === 'file' && candidate.field === field.name);
  if (rule && 'accept' in rule && rule.accept?.length) return rule.accept.join(',');
  const listed = (field.filetypes ?? []).flatMap((entry) => entry.split(/[\s,|]+/)).filter(Boolean);
  if (listed.length === 0) return 'audio/*,video/*,image/*';
  return listed.map((entry) => (entry.includes('/') ? entry : `.${entry.replace(/^\.+/, '')}`)).join(',');
}

const identityOf = (definition: ContactFormDefinition, unitTag: string): FormIdentity => ({
  id: definition.id,
  version: definition.version,
  locale: definition.locale,
  unitTag,
});

/** What the form sends: its fields as they stand, and the hidden fields from its state. */
function payloadOf(form: HTMLFormElement, definition: ContactFormDefinition, unitTag: string, postedDataHash: string, nonce: string): FormData {
  return feedbackPayload(new FormData(form), { identity: identityOf(definition, unitTag), fields: definition.fields, postedDataHash, nonce });
}

/** The session's nonce as it stands now (the page's own, kept fresh by every Store API answer). */
const sessionNonce = () => currentNonce() ?? settings.store_api_nonce;

/** The shop's form with this id, once its definition (and schema) have come. */
export function ContactForm({ formId, instance = 1 }: { formId: number; instance?: number }) {
  const form = useContactForm(formId);
  const schema = useContactFormSchema(formId);
  if (form.isPending) {
    return (
      <p className={styles.loading}>
        <Spinner /> Loading the form…
      </p>
    );
  }
  if (form.isError) return <Notice tone="error">{form.error.message}</Notice>;
  if (!hasSettings(form.data)) return <MissingSettings />;
  return <ContactFormView key={form.data.id} definition={form.data} schema={schema.data ?? null} instance={instance} />;
}

function MissingSettings() {
  useEffect(() => console.error(MISSING_SETTINGS), []);
  return <Notice tone="error">This contact form could not be loaded. Please try again later.</Notice>;
}

export function ContactFormView({ definition, schema, instance = 1 }: { definition: ContactFormDefinition; schema: SwvSchema | null; instance?: number }) {
  const unitTag = unitTagOf(definition.id, instance);
  const { fields } = definition;
  // The form's scripts run once the page does, in a browser with what they need;
  // until then (on the server, while the page is taken over) it is a plain form.
  const [running, setRunning] = useState(false);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [misplaced, setMisplaced] = useState(false);
  const [state, dispatch] = useReducer(feedbackReducer, definition.quiz, initialFeedbackState);
  const [controls, setControls] = useState(() => initialControls(fields));
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  const responseRef = useRef<HTMLDivElement>(null);

  // A form inside another form would be sent as part of that one (the browser does
  // not even keep a form tag inside a form): it is replaced by a notice.
  useEffect(() => {
    if (wrapperRef.current?.parentElement?.closest('form')) setMisplaced(true);
  }, []);

  useEffect(() => {
    const missing = missingSupport(window);
    if (missing) console.error(missing);
    else setRunning(true);
  }, []);

  // The form's own controls follow what the visitor does, and each field changed is checked.
  useEffect(() => {
    const form = formRef.current;
    if (!form || !running) return;
    const sync = () => setControls(readControls(form, fields));
    const check = (name: string) => {
      if (!schema) return;
      dispatch({ type: 'validate' });
      const rules = schema.rules.filter((rule) => fieldsOf(rule).includes(name));
      const invalid = validate({ ...schema, rules }, payloadOf(form, definition, unitTag, '', ''));
      dispatch({ type: 'checked', fields: [name], invalid });
    };
    const onChange = (event: Event) => {
      const target = event.target;
      if (!(target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement)) return;
      const field = fields.find((candidate) => candidate.name === fieldOfControl(target.name));
      if (field?.type === 'url') target.value = normalizeUrl(target.value);
      if (field?.type === 'checkbox' && field.exclusive && target instanceof HTMLInputElement && target.name === field.name) {
        const boxes = [...form.elements].filter((element): element is HTMLInputElement => element instanceof HTMLInputElement && element.name === field.name);
        const keep = exclusiveChoice(
          boxes.filter((box) => box.checked).map((box) => box.value),
          target.value,
          target.checked,
        );
        for (const box of boxes) box.checked = keep.includes(box.value);
      }
      sync();
      if (field) check(field.name);
    };
    sync();
    form.addEventListener('input', sync);
    form.addEventListener('change', onChange);
    return () => {
      form.removeEventListener('input', sync);
      form.removeEventListener('change', onChange);
    };
  }, [definition, fields, schema, unitTag, misplaced, running]);

  // Scripts of the page hear of each change of status (see lib/form-events.ts).
  useEffect(() => {
    if (running) sendFormEvent(wrapperRef.current, 'wpcf7statuschanged', { status: state.status, unitTag });
  }, [running, state.status, unitTag]);

  // A refused form's first field takes the focus once it is marked, scrolled (with its
  // label) clear of the sticky header as the checkout scrolls to the fields it names.
  useEffect(() => {
    if (!focusTarget) return;
    const control = document.getElementById(focusTarget);
    if (control) {
      control.focus({ preventScroll: true });
      scrollToElement(control.closest('fieldset, [data-row]') ?? control, NOTICE_SCROLL);
    }
    setFocusTarget(null);
  }, [focusTarget]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    // Without its scripts the form posts as a plain form.
    if (!running) return;
    event.preventDefault();
    if (state.status === 'submitting') return;
    const form = event.currentTarget;
    const wrapper = wrapperRef.current;
    const identity = identityOf(definition, unitTag);
    const payloadWith = (nonce: string) => payloadOf(form, definition, unitTag, state.postedDataHash, nonce);
    const sent = payloadWith(sessionNonce());
    if (schema) {
      dispatch({ type: 'validate' });
      const invalid = validate(schema, sent);
      if (invalid.length > 0) {
        dispatch({ type: 'refused', invalid });
        setFocusTarget(controlIdOf(unitTag, invalid[0]!.field));
        sendFormEvent(wrapper, 'wpcf7invalid', eventDetail(identity, 'invalid', sent));
        return;
      }
    }
    dispatch({ type: 'submit' });
    sendFormEvent(wrapper, 'wpcf7beforesubmit', eventDetail(identity, 'submitting', sent));
    try {
      const answer = await sendFeedback(definition.id, payloadWith, sessionNonce());
      if (!answer) {
        dispatch({ type: 'unanswered' });
        return;
      }
      dispatch({ type: 'answered', answer });
      const status = statusOf(answer.status);
      const detail = eventDetail(identity, status, sent, answer);
      const outcome = outcomeEvent(status);
      if (outcome) sendFormEvent(wrapper, outcome, detail);
      sendFormEvent(wrapper, 'wpcf7submit', detail);
      const refused = answer.invalid_fields?.[0];
      if (status === 'sent') {
        form.reset();
        // The button waits for the consent box again, so it cannot keep the focus: the
        // message takes it, and a keyboard goes on from there.
        responseRef.current?.focus({ preventScroll: true });
      }
      else if (refused) setFocusTarget(controlIdOf(unitTag, refused.field));
    } catch (error) {
      dispatch({ type: 'aborted', message: error instanceof Error ? error.message : OFFLINE_MESSAGE });
      sendFormEvent(wrapper, 'wpcf7aborted', eventDetail(identity, 'aborted', sent));
    }
  }

  function onReset(event: FormEvent<HTMLFormElement>) {
    if (!running) return;
    const form = event.currentTarget;
    const wrapper = wrapperRef.current;
    const detail = eventDetail(identityOf(definition, unitTag), 'resetting', new FormData(form));
    dispatch({ type: 'reset' });
    // The browser puts the fields back once this event is over.
    setTimeout(() => setControls(readControls(form, fields)), 0);
    void refillContactForm(definition.id)
      .then(
        (refill) => refill.quiz,
        () => undefined,
      )
      .then((quiz) => {
        dispatch({ type: 'refilled', quiz });
        sendFormEvent(wrapper, 'wpcf7reset', detail);
      });
  }

  if (misplaced) {
    return (
      <Notice tone="error" className="wpcf7-form-in-wrong-place">
        <strong>Error:</strong> {WRONG_PLACE_MESSAGE}
      </Notice>
    );
  }

  const identity = identityOf(definition, unitTag);
  // The visitor's own nonce: a page rendered on the server may be sent to many
  // visitors, so the server puts each one's in its slot as it sends the page.
  const nonce = import.meta.env.SSR ? SESSION_NONCE_SLOT : sessionNonce();
  const submitting = state.status === 'submitting';
  const tone = state.status === 'sent' ? styles.success : isFailure(state.status) ? styles.failure : '';
  const anyRequired = fields.some((field) => field.required || field.type === 'quiz');

  return (
    <div
      ref={wrapperRef}
      className={`wpcf7 ${running ? 'js' : 'no-js'} ${styles.contact}`}
      id={unitTag}
      lang={definition.locale.replace('_', '-')}
      dir="ltr"
      data-wpcf7-id={definition.id}
    >
      <form
        ref={formRef}
        action={`${CONTACT_API_ROOT}/contact-forms/${definition.id}/feedback`}
        method="post"
        encType="multipart/form-data"
        className={`wpcf7-form ${state.status} ${styles.form}`}
        data-status={state.status}
        aria-label="Contact form"
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        onReset={onReset}
      >
        {hiddenFields(identity, state.postedDataHash, nonce).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {anyRequired && (
          <p className={styles.note}>
            Required fields are marked{' '}
            <abbr className={`required ${styles.required}`} title="required">
              *
            </abbr>
          </p>
        )}
        {fields.map((field) => (
          <ContactFieldRow
            key={field.name}
            field={field}
            view={{
              unitTag,
              error: state.invalid[field.name],
              running,
              text: controls.texts[field.name],
              range: controls.ranges[field.name],
              freeTextOpen: controls.freeText[field.name],
              quiz: state.quiz[field.name],
              accept: field.type === 'file' ? acceptOf(field, schema) : undefined,
            }}
          />
        ))}
        {definition.honeypot && (
          // People never see this field; a form that fills it in is not a person's.
          <div className={styles.honeypot} aria-hidden="true">
            <label htmlFor={`${unitTag}-${definition.honeypot}`}>Leave this field empty</label>
            <input id={`${unitTag}-${definition.honeypot}`} type="text" name={definition.honeypot} tabIndex={-1} autoComplete="off" defaultValue="" />
          </div>
        )}
        <div className={styles.actions}>
          <Button
            type="submit"
            className="wpcf7-form-control wpcf7-submit has-spinner"
            // Without scripts the server judges the boxes; with them, the button waits for them.
            disabled={running && !controls.accepted}
            aria-busy={submitting}
          >
            {submitting && <Spinner />}
            Send message
          </Button>
        </div>
        <div
          ref={responseRef}
          tabIndex={-1}
          className={`wpcf7-response-output ${styles.response} ${tone}`}
          role="status"
          aria-live="polite"
          aria-atomic="true"
        >
          {state.message}
        </div>
      </form>
    </div>
  );
}

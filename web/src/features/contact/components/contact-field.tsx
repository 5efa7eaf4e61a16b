// One field of a contact form, drawn from its definition with the original plugin's
// classes: a label tied to its control (the quiz's question as its label), a red
// asterisk when required, groups of boxes as fieldsets with a legend, and the error
// and character count the control is described by.
import type { ReactNode } from 'react';
import { RequiredMark, SelectInput, TextArea, TextInput } from '@/components/ui/form-field';
import type { ContactField as Field } from '../api/get-contact-form';
import { controlNameOf, errorIdOf, freeTextNameOf, quizTokenNameOf } from '../lib/feedback-payload';
import { characterCount, hasCounter } from '../lib/form-controls';
import styles from './contact-form.module.css';

/** The text fields' longest input when their definition sets none (the server's TEXT_MAX_LENGTH and TEXTAREA_MAX_LENGTH). */
const TEXT_MAX_LENGTH = 400;
const TEXTAREA_MAX_LENGTH = 2000;

/** A select's blank first choice, in the original's words. */
const BLANK_CHOICE = '—Please choose an option—';

/** The input types of the fields typed in on one line. */
const INPUT_TYPES: Partial<Record<Field['type'], string>> = {
  text: 'text',
  email: 'email',
  url: 'url',
  tel: 'tel',
  number: 'number',
  range: 'range',
  date: 'date',
  time: 'time',
};

/** What a field is called: its label, else its name in words ("your-name" is "Your name"). */
export function labelOf(field: Field): string {
  if (field.label) return field.label;
  const words = field.name.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The id of a field's (first) control, which its label and error link to. */
export const controlIdOf = (unitTag: string, field: string) => `${unitTag}-${field}`;

export interface FieldView {
  unitTag: string;
  /** The field's error, when it has one. */
  error?: string;
  /** The page runs: the controls that need scripts follow what the visitor does. */
  running: boolean;
  /** The field's text (for its character count). */
  text?: string;
  /** A slider's value. */
  range?: string;
  /** Its free-text input is open. */
  freeTextOpen?: boolean;
  /** A quiz's question and its token. */
  quiz?: [question: string, token: string];
  /** The accepted file types (from the schema). */
  accept?: string;
}

const bound = (value: Field['min']) => (value === undefined ? undefined : String(value));

export function ContactFieldRow({ field, view }: { field: Field; view: FieldView }) {
  const { unitTag, error } = view;
  const id = controlIdOf(unitTag, field.name);
  const errorId = errorIdOf(unitTag, field.name);
  const countId = `${id}-count`;
  const counter = hasCounter(field) ? characterCount(view.text ?? '', field) : null;
  const describedBy = [error ? errorId : null, counter ? countId : null].filter(Boolean).join(' ') || undefined;
  const aria = {
    'aria-invalid': error ? ('true' as const) : ('false' as const),
    'aria-describedby': describedBy,
  };
  const controlClass = `wpcf7-form-control wpcf7-${field.type}${field.required ? ' wpcf7-validates-as-required' : ''}${error ? ' wpcf7-not-valid' : ''}`;
  const rowClass = `${styles.row} ${error ? styles.invalid : ''}`;
  const errorTip = error ? (
    <span className={`wpcf7-not-valid-tip ${styles.error}`} id={errorId}>
      {error}
    </span>
  ) : null;
  const label = (text: ReactNode, required: boolean, htmlFor = id) => (
    <label htmlFor={htmlFor} className={styles.label}>
      {text}
      {required && <RequiredMark required />}
    </label>
  );
  const wrap = (control: ReactNode) => (
    <span className={`wpcf7-form-control-wrap ${styles.wrap}`} data-name={field.name}>
      {control}
    </span>
  );

  switch (field.type) {
    case 'checkbox':
    case 'radio':
      return <ChoiceGroup field={field} view={view} controlClass={controlClass} describedBy={describedBy} errorTip={errorTip} />;
    case 'acceptance':
      return (
        <div data-row className={`${rowClass} wpcf7-acceptance${field.optional ? ' optional' : ''}${field.invert ? ' invert' : ''}`}>
          {wrap(
            <span className={controlClass}>
              <label className={styles.choice}>
                <input type="checkbox" id={id} name={field.name} value="1" className={styles.box} {...aria} />
                <span className="wpcf7-list-item-label">{field.content || labelOf(field)}</span>
              </label>
            </span>,
          )}
          {errorTip}
        </div>
      );
    case 'select': {
      const defaults = field.default ?? [];
      const options = field.options ?? [];
      return (
        <div className={rowClass} data-row>
          {label(labelOf(field), Boolean(field.required))}
          {wrap(
            <SelectInput
              id={id}
              name={controlNameOf(field)}
              multiple={field.multiple}
              className={`${controlClass} ${field.multiple ? styles.multiple : ''}`}
              defaultValue={field.multiple ? defaults : (defaults[0] ?? '')}
              aria-required={field.required || undefined}
              {...aria}
            >
              {field.include_blank && <option value="">{BLANK_CHOICE}</option>}
              {options.map((option, index) => (
                <option key={`${index}-${option}`} value={field.first_as_label && index === 0 ? '' : option}>
                  {option}
                </option>
              ))}
            </SelectInput>,
          )}
          {errorTip}
        </div>
      );
    }
    case 'textarea':
      return (
        <div className={rowClass} data-row>
          {label(labelOf(field), Boolean(field.required))}
          {wrap(
            <TextArea
              id={id}
              name={field.name}
              rows={8}
              className={controlClass}
              defaultValue={field.default?.[0] ?? ''}
              placeholder={field.placeholder}
              autoComplete={field.autocomplete}
              maxLength={field.maxlength || TEXTAREA_MAX_LENGTH}
              minLength={field.minlength || undefined}
              aria-required={field.required || undefined}
              {...aria}
            />,
          )}
          {counter && <Counter id={countId} count={counter} />}
          {errorTip}
        </div>
      );
    case 'file':
      return (
        <div className={rowClass} data-row>
          {label(labelOf(field), Boolean(field.required))}
          {wrap(
            <input
              type="file"
              id={id}
              name={field.name}
              accept={view.accept}
              className={`${controlClass} ${styles.file}`}
              aria-required={field.required || undefined}
              {...aria}
            />,
          )}
          {field.limit ? <span className={styles.hint}>Up to {fileSize(field.limit)}.</span> : null}
          {errorTip}
        </div>
      );
    case 'quiz':
      return (
        <div className={rowClass} data-row>
          {label(<span className="wpcf7-quiz-label">{view.quiz?.[0] ?? labelOf(field)}</span>, true)}
          {wrap(
            <>
              <TextInput id={id} name={field.name} className={controlClass} autoComplete="off" aria-required="true" {...aria} />
              <input type="hidden" name={quizTokenNameOf(field.name)} value={view.quiz?.[1] ?? ''} />
            </>,
          )}
          {errorTip}
        </div>
      );
    default: {
      const type = INPUT_TYPES[field.type] ?? 'text';
      const typed = ['text', 'email', 'url', 'tel'].includes(type);
      const input = (
        <TextInput
          type={type}
          id={id}
          name={field.name}
          className={`${controlClass} ${type === 'range' ? styles.range : ''}`}
          defaultValue={field.default?.[0]}
          placeholder={field.placeholder}
          autoComplete={field.autocomplete}
          maxLength={typed ? field.maxlength || TEXT_MAX_LENGTH : undefined}
          minLength={typed ? field.minlength || undefined : undefined}
          min={bound(field.min)}
          max={bound(field.max)}
          step={bound(field.step)}
          aria-required={field.required || undefined}
          {...aria}
        />
      );
      return (
        <div className={rowClass} data-row>
          {label(labelOf(field), Boolean(field.required))}
          {wrap(
            type === 'range' ? (
              <span className={styles.rangeRow}>
                {input}
                <output htmlFor={id} className={styles.rangeValue}>
                  {view.range}
                </output>
              </span>
            ) : (
              input
            ),
          )}
          {counter && <Counter id={countId} count={counter} />}
          {errorTip}
        </div>
      );
    }
  }
}

function Counter({ id, count }: { id: string; count: ReturnType<typeof characterCount> }) {
  const classes = ['wpcf7-character-count', count.maximum ? 'down' : 'up', count.tooLong ? 'too-long' : '', count.tooShort ? 'too-short' : '', styles.counter];
  return (
    <span
      id={id}
      className={classes.filter(Boolean).join(' ')}
      data-current-value={count.count}
      data-maximum-value={count.maximum ?? ''}
      data-minimum-value={count.minimum ?? ''}
    >
      {count.text}
    </span>
  );
}

/** A group of checkboxes or radio buttons: a fieldset whose legend is the field's label. */
function ChoiceGroup({
  field,
  view,
  controlClass,
  describedBy,
  errorTip,
}: {
  field: Field;
  view: FieldView;
  controlClass: string;
  describedBy: string | undefined;
  errorTip: ReactNode;
}) {
  const { unitTag, error } = view;
  const id = controlIdOf(unitTag, field.name);
  const options = field.options ?? [];
  const radio = field.type === 'radio';
  // A group of radio buttons always has one chosen: the first, unless the definition says which.
  const defaults = field.default?.length ? field.default : radio ? options.slice(0, 1) : [];
  const required = radio || Boolean(field.required);
  return (
    <fieldset
      className={`${styles.row} ${styles.group} ${error ? styles.invalid : ''}`}
      role={radio ? 'radiogroup' : undefined}
      aria-describedby={describedBy}
      aria-invalid={radio && error ? true : undefined}
      aria-required={radio && required ? true : undefined}
    >
      <legend className={styles.label}>
        {labelOf(field)}
        {required && !radio && <RequiredMark required />}
      </legend>
      <span className={`wpcf7-form-control-wrap ${styles.wrap}`} data-name={field.name}>
        <span className={`${controlClass}${field.exclusive ? ' wpcf7-exclusive-checkbox' : ''} ${styles.choices}`}>
          {options.map((option, index) => {
            const optionId = `${id}-${index + 1}`;
            const withText = Boolean(field.free_text) && index === options.length - 1;
            const text = <span className="wpcf7-list-item-label">{option}</span>;
            return (
              <span key={`${index}-${option}`} className={`wpcf7-list-item${index === 0 ? ' first' : ''}${index === options.length - 1 ? ' last' : ''}${withText ? ' has-free-text' : ''} ${styles.item}`}>
                <label className={styles.choice}>
                  {field.label_first && text}
                  <input
                    type={radio ? 'radio' : 'checkbox'}
                    id={index === 0 ? id : optionId}
                    name={controlNameOf(field)}
                    value={option}
                    defaultChecked={defaults.includes(option)}
                    className={styles.box}
                    aria-invalid={!radio && error ? 'true' : undefined}
                  />
                  {!field.label_first && text}
                </label>
                {withText && (
                  <TextInput
                    name={freeTextNameOf(field.name)}
                    className={`wpcf7-free-text ${styles.freeText}`}
                    aria-label={`${labelOf(field)}: ${option}, in your own words`}
                    // Without scripts it stays open; with them, only while its choice is chosen.
                    disabled={view.running && !view.freeTextOpen}
                  />
                )}
              </span>
            );
          })}
        </span>
      </span>
      {errorTip}
    </fieldset>
  );
}

function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

// Form rows as the shop's forms lay them out: a label with a red asterisk when the
// field is required or "(optional)" when not, the control, and an inline message when
// the field is invalid. The row carries the original shop's classes (form-row,
// validate-required, woocommerce-invalid…) next to its own look.
import type { ComponentProps, ReactNode } from 'react';
import { fieldRowStateClasses, type FieldStatus } from '@/types/field-status';
import styles from './form-field.module.css';

export type RowWidth = 'first' | 'last' | 'wide';

export function RequiredMark({ required, requiredText = 'required', optionalText = 'optional' }: { required: boolean; requiredText?: string; optionalText?: string }) {
  return required ? (
    <>
      {'\u00a0'}
      <abbr className={`required ${styles.required}`} title={requiredText}>
        *
      </abbr>
    </>
  ) : (
    <>
      {'\u00a0'}
      <span className={`optional ${styles.optional}`}>({optionalText})</span>
    </>
  );
}

/** The id of a field's inline message, for aria-describedby. */
export const messageIdOf = (fieldId: string) => `${fieldId}_description`;

export function FormRow({
  fieldId,
  label,
  required = false,
  requiredText,
  optionalText,
  labelHidden = false,
  width = 'wide',
  status,
  validate = [],
  className,
  hidden = false,
  markOptional = true,
  children,
}: {
  /** The control's id; the row's id is `{fieldId}_field`. */
  fieldId: string;
  label?: ReactNode;
  required?: boolean;
  requiredText?: string;
  optionalText?: string;
  labelHidden?: boolean;
  width?: RowWidth;
  status?: FieldStatus;
  /** Extra checks named on the row, as the original marks them: "email", "phone". */
  validate?: string[];
  className?: string;
  hidden?: boolean;
  /** Off where the label already says the field may stay empty. */
  markOptional?: boolean;
  children: ReactNode;
}) {
  const classes = [
    'form-row',
    `form-row-${width}`,
    styles.row,
    styles[width],
    required ? 'validate-required' : '',
    ...validate.map((rule) => `validate-${rule}`),
    ...fieldRowStateClasses(status),
    status && !status.valid ? styles.invalid : '',
    className ?? '',
  ];
  return (
    <p className={classes.filter(Boolean).join(' ')} id={`${fieldId}_field`} hidden={hidden}>
      {label !== undefined && (
        <label htmlFor={fieldId} className={labelHidden ? 'visually-hidden' : styles.label}>
          {label}
          {(required || markOptional) && <RequiredMark required={required} requiredText={requiredText} optionalText={optionalText} />}
        </label>
      )}
      <span className={`woocommerce-input-wrapper ${styles.wrapper}`}>{children}</span>
      {status && !status.valid && status.message && (
        <span className={`checkout-inline-error-message ${styles.message}`} id={messageIdOf(fieldId)}>
          {status.message}
        </span>
      )}
    </p>
  );
}

/** aria-invalid and aria-describedby for a control, from its row's status. */
export function statusAria(fieldId: string, status: FieldStatus | undefined) {
  return status && !status.valid
    ? { 'aria-invalid': true as const, 'aria-describedby': status.message ? messageIdOf(fieldId) : undefined }
    : {};
}

export function TextInput({ className, ...props }: ComponentProps<'input'>) {
  return <input type="text" {...props} className={`input-text ${styles.input} ${className ?? ''}`} />;
}

export function TextArea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea {...props} className={`input-text ${styles.input} ${styles.textarea} ${className ?? ''}`} />;
}

export function SelectInput({ className, children, ...props }: ComponentProps<'select'>) {
  return (
    <span className={styles.selectWrap}>
      <select {...props} className={`${styles.input} ${styles.select} ${className ?? ''}`}>
        {children}
      </select>
    </span>
  );
}

export function Checkbox({ label, className, ...props }: Omit<ComponentProps<'input'>, 'type'> & { label: ReactNode }) {
  return (
    <label className={`${styles.checkbox} ${className ?? ''}`}>
      <input type="checkbox" className={`input-checkbox ${styles.checkboxInput}`} {...props} />
      <span>{label}</span>
    </label>
  );
}

/** A group of rows: two columns for first/last rows on wider screens. */
export function FieldGrid({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={`${styles.grid} ${className ?? ''}`}>{children}</div>;
}

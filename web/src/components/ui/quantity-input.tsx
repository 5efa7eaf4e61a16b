// A quantity field with − and + buttons. The text may be edited freely; a value
// below the minimum is raised to it when the field loads and when it loses focus,
// and one above the maximum is lowered, as the original shop's quantity inputs do.
import { useEffect, useEffectEvent, useId, useState } from 'react';
import { clampQuantity } from '@/lib/quantity';
import styles from './quantity-input.module.css';

interface QuantityInputProps {
  value: number;
  min: number;
  max?: number | null;
  step?: number;
  /** Visible to screen readers only, e.g. "Beanie quantity". */
  label: string;
  disabled?: boolean;
  size?: 'sm' | 'md';
  /** The form field's name, for a form that also works without scripts. */
  name?: string;
  /** Called with a whole number within the limits. */
  onChange: (quantity: number) => void;
}

export function QuantityInput({ value, min, max, step = 1, label, disabled, size = 'md', name, onChange }: QuantityInputProps) {
  const id = useId();
  const [text, setText] = useState(String(value));
  const limits = { min, max };
  const upper = max && max > 0 ? max : undefined;

  // Follow the value from outside (a refetched cart, limits of a newly chosen variation).
  useEffect(() => {
    setText(String(value));
  }, [value]);

  // Raise a value below the minimum on load, and whenever the limits change; typing
  // is handled on blur, so the value itself does not trigger this.
  const clampToLimits = useEffectEvent((limitMin: number, limitMax: number | null | undefined) => {
    const clamped = clampQuantity(value, { min: limitMin, max: limitMax });
    if (clamped !== value) onChange(clamped);
  });
  useEffect(() => clampToLimits(min, max), [min, max]);

  function commit(next: number) {
    const clamped = clampQuantity(next, limits);
    setText(String(clamped));
    if (clamped !== value) onChange(clamped);
  }

  function onInput(next: string) {
    setText(next);
    const parsed = Number.parseInt(next, 10);
    // Report only values already within the limits; the rest are fixed on blur.
    if (Number.isFinite(parsed) && clampQuantity(parsed, limits) === parsed && parsed !== value) onChange(parsed);
  }

  const current = clampQuantity(text, limits);

  return (
    <div className={`${styles.quantity} ${styles[size]}`}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <button
        type="button"
        className={styles.step}
        onClick={() => commit(current - step)}
        disabled={disabled || current <= min}
        aria-label={`Decrease ${label}`}
        tabIndex={-1}
      >
        <span aria-hidden="true">−</span>
      </button>
      <input
        id={id}
        className={styles.input}
        type="number"
        name={name}
        inputMode="numeric"
        min={min}
        max={upper}
        step={step}
        value={text}
        disabled={disabled}
        onChange={(event) => onInput(event.target.value)}
        onBlur={() => commit(Number.parseInt(text, 10))}
      />
      <button
        type="button"
        className={styles.step}
        onClick={() => commit(current + step)}
        disabled={disabled || (upper !== undefined && current >= upper)}
        aria-label={`Increase ${label}`}
        tabIndex={-1}
      >
        <span aria-hidden="true">+</span>
      </button>
    </div>
  );
}

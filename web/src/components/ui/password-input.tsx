// A password field with a show/hide toggle, as the shop's login, registration and
// checkout forms have. The toggle is a real button that says what it will do.
import { useState, type ComponentProps } from 'react';
import { Icon } from './icon';
import styles from './form-field.module.css';

export function PasswordInput({ className, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  const [shown, setShown] = useState(false);
  return (
    <span className={`password-input ${styles.password}`}>
      <input {...props} type={shown ? 'text' : 'password'} className={`input-text ${styles.input} ${className ?? ''}`} />
      <button
        type="button"
        className={`show-password-input ${styles.reveal}`}
        aria-label="Show password"
        aria-pressed={shown}
        onClick={() => setShown((value) => !value)}
        disabled={props.disabled}
      >
        <Icon name={shown ? 'eye-off' : 'eye'} size={18} />
      </button>
    </span>
  );
}

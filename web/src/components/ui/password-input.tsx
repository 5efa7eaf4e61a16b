// A password field with a show/hide toggle, as the shop's login, registration and
// checkout forms have. The toggle is a real button whose name says what pressing it
// will do ("Show password", then "Hide password"), so it carries no pressed state.
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
        aria-label={shown ? 'Hide password' : 'Show password'}
        onClick={() => setShown((value) => !value)}
        disabled={props.disabled}
      >
        <Icon name={shown ? 'eye-off' : 'eye'} size={18} />
      </button>
    </span>
  );
}

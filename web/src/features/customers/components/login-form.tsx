// The login form: username or e-mail, password (with show/hide), remember me, and the
// lost-password link. Used on /my-account and, through the app, at checkout. A login
// loads `redirectTo` afresh, since the visitor's nonces change with it.
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from '@/components/ui/link';
import { Button } from '@/components/ui/button';
import { Checkbox, FieldGrid, FormRow, TextInput } from '@/components/ui/form-field';
import { Notice } from '@/components/ui/notice';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useTypedBeforeTakeover } from '@/hooks/use-typed-before-takeover';
import type { FieldStatuses } from '@/types/field-status';
import { useLogIn } from '../api/log-in';
import { missingFields } from '../lib/field-errors';
import styles from './account.module.css';

export function LoginForm({
  redirectTo,
  intro,
  idPrefix = '',
  sideBySide = false,
}: {
  redirectTo: string;
  intro?: ReactNode;
  idPrefix?: string;
  /** Username and password next to each other on wider screens (the checkout's wide form). */
  sideBySide?: boolean;
}) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [statuses, setStatuses] = useState<FieldStatuses>({});
  const login = useLogIn(redirectTo);
  const id = (name: string) => `${idPrefix}${name}`;
  const form = useRef<HTMLFormElement>(null);
  useTypedBeforeTakeover(form, {
    username: (typed) => setUsername((current) => current || typed),
    password: (typed) => setPassword((current) => current || typed),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = missingFields([
      { id: id('username'), label: 'Username or email address', value: username, required: true },
      { id: id('password'), label: 'Password', value: password, required: true },
    ]);
    setStatuses(missing);
    if (Object.keys(missing).length > 0) return;
    login.mutate({ username: username.trim(), password, remember });
  };

  return (
    <form ref={form} method="post" className={`woocommerce-form woocommerce-form-login login ${styles.form}`} onSubmit={submit} noValidate aria-label="Login">
      {intro && <div className={styles.intro}>{intro}</div>}
      {login.error && <Notice tone="error">{login.error.message}</Notice>}
      <FieldGrid>
        <FormRow fieldId={id('username')} label="Username or email address" required width={sideBySide ? 'first' : 'wide'} status={statuses[id('username')]}>
          <TextInput
            id={id('username')}
            name="username"
            autoComplete="username"
            value={username}
            onChange={(event) => {
              setUsername(event.target.value);
              setStatuses((current) => ({ ...current, [id('username')]: undefined }));
            }}
          />
        </FormRow>
        <FormRow fieldId={id('password')} label="Password" required width={sideBySide ? 'last' : 'wide'} status={statuses[id('password')]}>
          <PasswordInput
            id={id('password')}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setStatuses((current) => ({ ...current, [id('password')]: undefined }));
            }}
          />
        </FormRow>
      </FieldGrid>
      <div className={styles.formFoot}>
        <Checkbox name="rememberme" value="forever" checked={remember} onChange={(event) => setRemember(event.target.checked)} label="Remember me" />
        <Button type="submit" name="login" value="Log in" disabled={login.isPending || login.isSuccess} aria-busy={login.isPending}>
          {(login.isPending || login.isSuccess) && <Spinner />}
          Log in
        </Button>
      </div>
      <p className={`woocommerce-LostPassword lost_password ${styles.small}`}>
        <Link to={paths.lostPassword()}>Lost your password?</Link>
      </p>
    </form>
  );
}

// /my-account/lost-password: asks for the account's username or e-mail and sends a
// reset link; with ?key=…&login=… (the link) it asks for the new password instead.
import { useState, type FormEvent } from 'react';
import { Link } from '@/components/ui/link';
import { Button } from '@/components/ui/button';
import { FieldGrid, FormRow, statusAria, TextInput } from '@/components/ui/form-field';
import { Notice } from '@/components/ui/notice';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import type { FieldStatuses } from '@/types/field-status';
import { useRequestPasswordReset, useResetPassword } from '../api/lost-password';
import { missingFields } from '../lib/field-errors';
import styles from './account.module.css';

export function LostPasswordForm() {
  const [login, setLogin] = useState('');
  const [statuses, setStatuses] = useState<FieldStatuses>({});
  const request = useRequestPasswordReset();

  if (request.isSuccess) {
    return (
      <div className={styles.stack}>
        <Notice tone="success">{request.data.message || 'Password reset email has been sent.'}</Notice>
        <p className={styles.muted}>
          A password reset email has been sent to the email address on file for your account, but may take several minutes to show up in your inbox. Please
          wait at least 10 minutes before attempting another reset.
        </p>
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = missingFields([{ id: 'user_login', label: 'Username or email', value: login, required: true }]);
    setStatuses(missing);
    if (Object.keys(missing).length === 0) request.mutate(login.trim());
  };

  return (
    <form method="post" className={`woocommerce-ResetPassword lost_reset_password ${styles.form} ${styles.narrow}`} onSubmit={submit} noValidate aria-label="Lost password">
      <p className={styles.muted}>Lost your password? Please enter your username or email address. You will receive a link to create a new password via email.</p>
      {request.error && <Notice tone="error">{request.error.message}</Notice>}
      <FieldGrid>
        <FormRow fieldId="user_login" label="Username or email" required status={statuses.user_login}>
          <TextInput
            id="user_login"
            name="user_login"
            autoComplete="username"
            value={login}
            onChange={(event) => {
              setLogin(event.target.value);
              setStatuses({});
            }}
            {...statusAria('user_login', statuses.user_login)}
          />
        </FormRow>
      </FieldGrid>
      <div className={styles.formFoot}>
        <Button type="submit" disabled={request.isPending} aria-busy={request.isPending}>
          {request.isPending && <Spinner />}
          Reset password
        </Button>
      </div>
    </form>
  );
}

export function ResetPasswordForm({ resetKey, login }: { resetKey: string; login: string }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [statuses, setStatuses] = useState<FieldStatuses>({});
  const reset = useResetPassword();

  if (reset.isSuccess) {
    return (
      <div className={styles.stack}>
        <Notice tone="success">{reset.data.message || 'Your password has been reset successfully.'}</Notice>
        <p>
          <Link to={paths.account()}>Log in</Link>
        </p>
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = missingFields([
      { id: 'password_1', label: 'New password', value: password, required: true },
      { id: 'password_2', label: 'Re-enter new password', value: confirm, required: true },
    ]);
    if (password && confirm && password !== confirm) missing.password_2 = { valid: false, code: 'server', message: 'Passwords do not match.' };
    setStatuses(missing);
    if (Object.keys(missing).length === 0) reset.mutate({ login, key: resetKey, password, password_confirm: confirm });
  };

  return (
    <form method="post" className={`woocommerce-ResetPassword lost_reset_password ${styles.form} ${styles.narrow}`} onSubmit={submit} noValidate aria-label="Reset password">
      <p className={styles.muted}>Enter a new password below.</p>
      {reset.error && <Notice tone="error">{reset.error.message}</Notice>}
      <FieldGrid>
        <FormRow fieldId="password_1" label="New password" required status={statuses.password_1}>
          <PasswordInput id="password_1" name="password_1" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} {...statusAria('password_1', statuses.password_1)} />
        </FormRow>
        <FormRow fieldId="password_2" label="Re-enter new password" required status={statuses.password_2}>
          <PasswordInput id="password_2" name="password_2" autoComplete="new-password" value={confirm} onChange={(event) => setConfirm(event.target.value)} {...statusAria('password_2', statuses.password_2)} />
        </FormRow>
      </FieldGrid>
      <div className={styles.formFoot}>
        <Button type="submit" disabled={reset.isPending} aria-busy={reset.isPending}>
          {reset.isPending && <Spinner />}
          Save
        </Button>
      </div>
    </form>
  );
}

// Registration on /my-account: e-mail and password (with show/hide).
import { useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FieldGrid, FormRow, statusAria, TextInput } from '@/components/ui/form-field';
import { Notice } from '@/components/ui/notice';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import { useTypedBeforeTakeover } from '@/hooks/use-typed-before-takeover';
import type { FieldStatuses } from '@/types/field-status';
import { useRegister } from '../api/register';
import { fieldErrorsOf, missingFields } from '../lib/field-errors';
import styles from './account.module.css';

const FIELD_IDS: Record<string, string> = { email: 'reg_email', password: 'reg_password' };

export function RegisterForm({ redirectTo }: { redirectTo: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [statuses, setStatuses] = useState<FieldStatuses>({});
  const registration = useRegister(redirectTo);
  const form = useRef<HTMLFormElement>(null);
  useTypedBeforeTakeover(form, {
    email: (typed) => setEmail((current) => current || typed),
    password: (typed) => setPassword((current) => current || typed),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = missingFields([
      { id: 'reg_email', label: 'Email address', value: email, required: true },
      { id: 'reg_password', label: 'Password', value: password, required: true },
    ]);
    setStatuses(missing);
    if (Object.keys(missing).length > 0) return;
    registration.mutate(
      { email: email.trim(), password },
      {
        onError: (error) => {
          const byField = fieldErrorsOf(error);
          const mapped: FieldStatuses = {};
          for (const [field, status] of Object.entries(byField)) mapped[FIELD_IDS[field] ?? field] = status;
          setStatuses(mapped);
        },
      },
    );
  };

  const clear = (id: string) => setStatuses((current) => ({ ...current, [id]: undefined }));

  return (
    <form ref={form} method="post" className={`woocommerce-form woocommerce-form-register register ${styles.form}`} onSubmit={submit} noValidate aria-label="Register">
      {registration.error && <Notice tone="error">{registration.error.message}</Notice>}
      <FieldGrid>
        <FormRow fieldId="reg_email" label="Email address" required status={statuses.reg_email}>
          <TextInput
            id="reg_email"
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              clear('reg_email');
            }}
            {...statusAria('reg_email', statuses.reg_email)}
          />
        </FormRow>
        <FormRow fieldId="reg_password" label="Password" required status={statuses.reg_password}>
          <PasswordInput
            id="reg_password"
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              clear('reg_password');
            }}
            {...statusAria('reg_password', statuses.reg_password)}
          />
        </FormRow>
      </FieldGrid>
      <p className={styles.small}>
        Your personal data will be used to support your experience throughout this website, to manage access to your account, and for other purposes
        described in our privacy policy.
      </p>
      <div className={styles.formFoot}>
        <Button type="submit" name="register" value="Register" disabled={registration.isPending || registration.isSuccess} aria-busy={registration.isPending}>
          {(registration.isPending || registration.isSuccess) && <Spinner />}
          Register
        </Button>
      </div>
    </form>
  );
}

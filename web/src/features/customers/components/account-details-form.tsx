// /my-account/edit-account: names, e-mail, and a password change (current, new, confirm).
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FieldGrid, FormRow, statusAria, TextInput } from '@/components/ui/form-field';
import { Notice } from '@/components/ui/notice';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import type { FieldStatuses } from '@/types/field-status';
import type { AccountUser } from '../api/account-types';
import { type AccountDetailsInput, useUpdateAccountDetails } from '../api/update-account-details';
import { fieldErrorsOf, missingFields } from '../lib/field-errors';
import styles from './account.module.css';

const LABELS: Record<keyof AccountDetailsInput, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  display_name: 'Display name',
  email: 'Email address',
  password_current: 'Current password',
  password_1: 'New password',
  password_2: 'Confirm new password',
};

const idOf = (key: keyof AccountDetailsInput) => `account_${key}`;

export function AccountDetailsForm({ user }: { user: AccountUser }) {
  const [values, setValues] = useState<AccountDetailsInput>({
    first_name: user.first_name,
    last_name: user.last_name,
    display_name: user.display_name,
    email: user.email,
    password_current: '',
    password_1: '',
    password_2: '',
  });
  const [statuses, setStatuses] = useState<FieldStatuses>({});
  const save = useUpdateAccountDetails();

  const set = (key: keyof AccountDetailsInput) => (value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    setStatuses((current) => ({ ...current, [idOf(key)]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = missingFields(
      (['first_name', 'last_name', 'display_name', 'email'] as const).map((key) => ({ id: idOf(key), label: LABELS[key], value: values[key], required: true })),
    );
    if (values.password_1 && values.password_1 !== values.password_2) {
      missing[idOf('password_2')] = { valid: false, code: 'server', message: 'New passwords do not match.' };
    }
    setStatuses(missing);
    if (Object.keys(missing).length > 0) return;
    save.mutate(values, {
      onSuccess: () => setValues((current) => ({ ...current, password_current: '', password_1: '', password_2: '' })),
      onError: (error) => setStatuses(fieldErrorsOf(error, 'account_')),
    });
  };

  const text = (key: keyof AccountDetailsInput, props: { type?: string; autoComplete?: string; width?: 'first' | 'last' | 'wide'; required?: boolean } = {}) => (
    <FormRow fieldId={idOf(key)} label={LABELS[key]} required={props.required ?? true} width={props.width} status={statuses[idOf(key)]}>
      <TextInput
        id={idOf(key)}
        name={idOf(key)}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        value={values[key]}
        onChange={(event) => set(key)(event.target.value)}
        {...statusAria(idOf(key), statuses[idOf(key)])}
      />
    </FormRow>
  );

  const password = (key: keyof AccountDetailsInput, label: string, autoComplete: string) => (
    <FormRow fieldId={idOf(key)} label={label} required={false} markOptional={false} status={statuses[idOf(key)]}>
      <PasswordInput
        id={idOf(key)}
        name={idOf(key)}
        autoComplete={autoComplete}
        value={values[key]}
        onChange={(event) => set(key)(event.target.value)}
        {...statusAria(idOf(key), statuses[idOf(key)])}
      />
    </FormRow>
  );

  return (
    <form method="post" className={`woocommerce-EditAccountForm edit-account ${styles.form} ${styles.stack}`} onSubmit={submit} noValidate aria-label="Account details">
      {save.isSuccess && <Notice tone="success">{save.data.message || 'Account details changed successfully.'}</Notice>}
      {save.error && <Notice tone="error">{save.error.message}</Notice>}
      <FieldGrid>
        {text('first_name', { width: 'first', autoComplete: 'given-name' })}
        {text('last_name', { width: 'last', autoComplete: 'family-name' })}
        {text('display_name')}
      </FieldGrid>
      <p className={styles.hint} id="account_display_name_description">
        This will be how your name will be displayed in the account section and in reviews
      </p>
      <FieldGrid>{text('email', { type: 'email', autoComplete: 'email' })}</FieldGrid>
      <fieldset className={styles.fieldset}>
        <legend>Password change</legend>
        <FieldGrid>
          {password('password_current', 'Current password (leave blank to leave unchanged)', 'current-password')}
          {password('password_1', 'New password (leave blank to leave unchanged)', 'new-password')}
          {password('password_2', 'Confirm new password', 'new-password')}
        </FieldGrid>
      </fieldset>
      <div className={styles.formFoot}>
        <Button type="submit" name="save_account_details" value="Save changes" disabled={save.isPending} aria-busy={save.isPending}>
          {save.isPending && <Spinner />}
          Save changes
        </Button>
      </div>
    </form>
  );
}

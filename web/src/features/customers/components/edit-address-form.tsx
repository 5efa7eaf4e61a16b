// /my-account/edit-address/{billing|shipping}: one saved address, with the same
// per-country fields as the checkout. Required fields are checked here; the server
// checks the rest and names the fields it refuses.
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { AddressFields } from '@/components/address/address-fields';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { settings } from '@/config/settings';
import { type AddressFieldKey, type AddressLocale, addressFields, fieldTitle } from '@/lib/address-locale';
import type { FieldStatuses } from '@/types/field-status';
import type { StoreAddress } from '@/types/store-api';
import type { AddressType } from '../api/update-address';
import { useUpdateAddress } from '../api/update-address';
import { fieldErrorsOf } from '../lib/field-errors';
import styles from './account.module.css';

type Values = Partial<Record<AddressFieldKey, string>>;

export function EditAddressForm({
  type,
  saved,
  locale,
}: {
  type: AddressType;
  saved: StoreAddress | undefined;
  locale: AddressLocale;
}) {
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>(() => {
    const initial: Values = { ...saved };
    initial.country ||= settings.checkout.default_country;
    if (type === 'billing') initial.email ||= settings.account.email;
    return initial;
  });
  const [statuses, setStatuses] = useState<FieldStatuses>({});
  const save = useUpdateAddress(type);
  const fields = addressFields(locale, values.country ?? '', type);
  const title = type === 'billing' ? 'Billing address' : 'Shipping address';

  const check = (key: AddressFieldKey, current: Values) => {
    const field = fields.find((candidate) => candidate.key === key);
    if (!field || field.control === 'state-hidden') return;
    const empty = field.required && (current[key] ?? '').trim() === '';
    setStatuses((previous) => ({
      ...previous,
      [field.id]: empty ? { valid: false, code: 'required', message: `${fieldTitle(field)} is a required field.` } : { valid: true },
    }));
  };

  const events = {
    onInput: (key: AddressFieldKey, value: string) => {
      setValues((current) => ({ ...current, [key]: value }));
      setStatuses((previous) => ({ ...previous, [`${type}_${key}`]: undefined }));
    },
    onChange: (key: AddressFieldKey, value: string) => {
      const next = { ...values, [key]: value, ...(key === 'country' ? { state: '' } : {}) };
      setValues(next);
      check(key, next);
    },
    onBlur: (key: AddressFieldKey) => check(key, values),
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing: FieldStatuses = {};
    for (const field of fields) {
      if (field.control === 'state-hidden' || !field.required) continue;
      if ((values[field.key] ?? '').trim() === '') missing[field.id] = { valid: false, code: 'required', message: `${fieldTitle(field)} is a required field.` };
    }
    setStatuses(missing);
    if (Object.keys(missing).length > 0) {
      document.getElementById(Object.keys(missing)[0]!)?.focus();
      return;
    }
    const address: Partial<StoreAddress> = {};
    for (const field of fields) address[field.key] = field.control === 'state-hidden' ? '' : (values[field.key] ?? '').trim();
    save.mutate(address, {
      onSuccess: (answer) => navigate(paths.accountAddresses(), { state: { notice: answer.message || 'Address changed successfully.' } }),
      onError: (error) => setStatuses(fieldErrorsOf(error, `${type}_`)),
    });
  };

  return (
    <form method="post" className={`${styles.form} ${styles.stack}`} onSubmit={submit} noValidate aria-labelledby="edit-address-heading">
      <h2 id="edit-address-heading" className={styles.cardTitle}>
        {title}
      </h2>
      {save.error && <Notice tone="error">{save.error.message}</Notice>}
      <AddressFields
        fields={fields}
        values={values}
        statuses={statuses}
        events={events}
        requiredText={locale.i18n_required_text}
        optionalText={locale.i18n_optional_text}
        disabled={save.isPending}
      />
      <div className={styles.formFoot}>
        <Button type="submit" name="save_address" value="Save address" disabled={save.isPending} aria-busy={save.isPending}>
          {save.isPending && <Spinner />}
          Save address
        </Button>
      </div>
    </form>
  );
}

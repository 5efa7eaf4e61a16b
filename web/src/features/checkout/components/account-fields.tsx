// Creating an account while checking out: a "Create an account?" box that unfolds the
// password field when guests may choose, or the password field alone (required) when
// the shop does not sell to guests.
import { Collapsible } from '@/components/ui/collapsible';
import { Checkbox, FieldGrid, FormRow, statusAria } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import type { FieldStatus } from '@/types/field-status';
import type { AccountMode } from '../lib/checkout-form';
import styles from './checkout.module.css';

export const CREATE_ACCOUNT_SLIDE_MS = 400;

function PasswordRow({
  value,
  status,
  onInput,
  onBlur,
}: {
  value: string;
  status: FieldStatus | undefined;
  onInput: (value: string) => void;
  onBlur: () => void;
}) {
  return (
    <FieldGrid>
      <FormRow fieldId="account_password" label="Create account password" required status={status}>
        <PasswordInput
          id="account_password"
          name="account_password"
          autoComplete="new-password"
          value={value}
          onChange={(event) => onInput(event.target.value)}
          onBlur={onBlur}
          {...statusAria('account_password', status)}
        />
      </FormRow>
    </FieldGrid>
  );
}

export function AccountFields({
  mode,
  createAccount,
  password,
  status,
  onCreateAccount,
  onPasswordInput,
  onPasswordBlur,
}: {
  mode: AccountMode;
  createAccount: boolean;
  password: string;
  status: FieldStatus | undefined;
  onCreateAccount: (create: boolean) => void;
  onPasswordInput: (value: string) => void;
  onPasswordBlur: () => void;
}) {
  if (mode === 'none') return null;
  const row = <PasswordRow value={password} status={status} onInput={onPasswordInput} onBlur={onPasswordBlur} />;
  return (
    <div className={`woocommerce-account-fields ${styles.accountFields}`}>
      {mode === 'optional' ? (
        <>
          <p className="form-row form-row-wide create-account">
            <Checkbox
              id="createaccount"
              name="createaccount"
              value="1"
              checked={createAccount}
              onChange={(event) => onCreateAccount(event.target.checked)}
              label="Create an account?"
            />
          </p>
          <Collapsible open={createAccount} duration={CREATE_ACCOUNT_SLIDE_MS} className={`create-account ${styles.accountPassword}`}>
            {row}
          </Collapsible>
        </>
      ) : (
        <div className={`create-account ${styles.accountPassword}`}>{row}</div>
      )}
    </div>
  );
}

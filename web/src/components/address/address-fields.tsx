// The fields of one billing or shipping address, laid out by the shop's per-country
// rules (lib/address-locale.ts): labels, placeholders, required marks, order, and the
// state as a select, a hidden input or free text. The checkout and the account's
// address forms both use it; they own the values and decide when to check them.
import { Fragment, memo } from 'react';
import { FieldGrid, FormRow, SelectInput, statusAria, TextInput, type RowWidth } from '@/components/ui/form-field';
import type { AddressField, AddressFieldKey } from '@/lib/address-locale';
import type { FieldStatuses } from '@/types/field-status';
import { autocompleteHint } from '@/lib/autocomplete';

export interface AddressFieldEvents {
  /** Every keystroke in a text field. */
  onInput: (key: AddressFieldKey, value: string) => void;
  /** A select's new choice. */
  onChange: (key: AddressFieldKey, value: string) => void;
  /** Focus left the field. */
  onBlur: (key: AddressFieldKey) => void;
}

function widthOf(field: AddressField): RowWidth {
  if (field.classes.includes('form-row-first')) return 'first';
  if (field.classes.includes('form-row-last')) return 'last';
  return 'wide';
}

// Memoised: the checkout re-renders as its order review refreshes, and an address's
// country select alone holds some 250 options.
export const AddressFields = memo(function AddressFields({
  fields,
  values,
  statuses = {},
  requiredText,
  optionalText,
  disabled = false,
  events,
}: {
  fields: AddressField[];
  values: Partial<Record<AddressFieldKey, string>>;
  /** Keyed by field id (`billing_email`). */
  statuses?: FieldStatuses;
  requiredText?: string;
  optionalText?: string;
  disabled?: boolean;
  events: AddressFieldEvents;
}) {
  return (
    <FieldGrid>
      {fields.map((field) => {
        const value = values[field.key] ?? '';
        const status = statuses[field.id];
        const aria = statusAria(field.id, status);
        const validate = [field.validateEmail ? 'email' : '', field.validatePhone ? 'phone' : ''].filter(Boolean);
        const locationClass = field.classes.includes('address-field') ? 'address-field' : '';

        let control;
        switch (field.control) {
          case 'country':
          case 'state-select':
            control = (
              <SelectInput
                id={field.id}
                name={field.id}
                value={value}
                autoComplete={autocompleteHint(field.autocomplete)}
                disabled={disabled}
                onChange={(event) => events.onChange(field.key, event.target.value)}
                onBlur={() => events.onBlur(field.key)}
                {...aria}
              >
                <option value="">{field.control === 'country' ? 'Select a country / region…' : 'Select an option…'}</option>
                {field.options.map(([code, name]) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
              </SelectInput>
            );
            break;
          case 'state-hidden':
            return (
              <Fragment key={field.id}>
                <input type="hidden" id={field.id} name={field.id} value="" />
              </Fragment>
            );
          default:
            control = (
              <TextInput
                id={field.id}
                name={field.id}
                type={field.control === 'email' ? 'email' : field.control === 'tel' ? 'tel' : 'text'}
                value={value}
                placeholder={field.placeholder || undefined}
                autoComplete={autocompleteHint(field.autocomplete)}
                disabled={disabled}
                onChange={(event) => events.onInput(field.key, event.target.value)}
                onBlur={() => events.onBlur(field.key)}
                {...aria}
              />
            );
        }

        return (
          <FormRow
            key={field.id}
            fieldId={field.id}
            label={field.label}
            labelHidden={field.labelHidden}
            required={field.required}
            requiredText={requiredText}
            optionalText={optionalText}
            width={widthOf(field)}
            status={status}
            validate={validate}
            className={locationClass}
          >
            {control}
          </FormRow>
        );
      })}
    </FieldGrid>
  );
});

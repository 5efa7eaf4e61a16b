// What a form field shows after it was checked: nothing yet, valid, or invalid with
// a reason (`required`, `email`, `phone`, or the server's verdict) and a message.
export type FieldStatus = { valid: true } | { valid: false; code: string; message: string };

export type FieldStatuses = Record<string, FieldStatus | undefined>;

/**
 * The original shop's classes on a field's row: `woocommerce-invalid` plus the reason,
 * or `woocommerce-validated`. Themes and scripts written for the original look for them.
 */
export function fieldRowStateClasses(status: FieldStatus | undefined): string[] {
  if (!status) return [];
  if (status.valid) return ['woocommerce-validated'];
  const reason =
    status.code === 'required'
      ? 'woocommerce-invalid-required-field'
      : status.code === 'email'
        ? 'woocommerce-invalid-email'
        : status.code === 'phone'
          ? 'woocommerce-invalid-phone'
          : null;
  return reason ? ['woocommerce-invalid', reason] : ['woocommerce-invalid'];
}

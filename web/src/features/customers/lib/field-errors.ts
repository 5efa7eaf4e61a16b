// Field verdicts from a refused account call: `data.errors` [{field_id, message}], or
// one `data.field` with the call's message. Shown next to the fields they name.
import { ApiError } from '@/lib/api-client';
import type { FieldStatuses } from '@/types/field-status';

export function fieldErrorsOf(error: unknown, prefix = ''): FieldStatuses {
  if (!(error instanceof ApiError) || !error.data) return {};
  const statuses: FieldStatuses = {};
  const errors = error.data.errors;
  if (Array.isArray(errors)) {
    for (const item of errors as { field_id?: unknown; field?: unknown; message?: unknown }[]) {
      const id = typeof item.field_id === 'string' ? item.field_id : typeof item.field === 'string' ? item.field : null;
      if (id) statuses[id.startsWith(prefix) ? id : `${prefix}${id}`] = { valid: false, code: 'server', message: String(item.message ?? error.message) };
    }
  }
  const field = error.data.field;
  if (typeof field === 'string' && !statuses[field]) {
    statuses[field.startsWith(prefix) ? field : `${prefix}${field}`] = { valid: false, code: 'server', message: error.message };
  }
  return statuses;
}

/** Required fields left empty, with the shop's wording ("First name is a required field."). */
export function missingFields(fields: { id: string; label: string; value: string; required: boolean }[]): FieldStatuses {
  const statuses: FieldStatuses = {};
  for (const field of fields) {
    if (field.required && field.value.trim() === '') {
      statuses[field.id] = { valid: false, code: 'required', message: `${field.label} is a required field.` };
    }
  }
  return statuses;
}

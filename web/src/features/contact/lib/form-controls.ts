// What a contact form shows beside its fields, worked out from what they hold: whether
// it may be sent yet (acceptance boxes), which free-text inputs are open, character
// counts, the values of sliders; and the exclusive boxes that untick one another.
import type { ContactField } from '../api/get-contact-form';

/**
 * Whether every acceptance box stands as it must for the form to be sent: ticked, or
 * left unticked when inverted. Optional boxes never stand in the way.
 */
export function acceptanceGiven(fields: ContactField[], isTicked: (name: string) => boolean): boolean {
  return fields.filter((field) => field.type === 'acceptance' && !field.optional).every((field) => isTicked(field.name) !== Boolean(field.invert));
}

/** The boxes of an exclusive group that stay ticked once `changed` was ticked or unticked. */
export function exclusiveChoice(ticked: string[], changed: string, checked: boolean): string[] {
  return checked ? [changed] : ticked.filter((value) => value !== changed);
}

/** Whether a choice field's own text input is open: it belongs to the last option, and is open while that is chosen. */
export function freeTextOpen(field: ContactField, ticked: string[]): boolean {
  const last = field.options?.[field.options.length - 1];
  return Boolean(field.free_text) && last !== undefined && ticked.includes(last);
}

/** The fields whose length the form counts as the visitor types: those with their own limits. */
export const hasCounter = (field: ContactField) =>
  ['text', 'email', 'url', 'tel', 'textarea'].includes(field.type) && (Boolean(field.maxlength) || Boolean(field.minlength));

export interface CharacterCount {
  count: number;
  maximum?: number;
  minimum?: number;
  tooLong: boolean;
  /** Below the minimum; an empty field is not (minlength passes a field left empty). */
  tooShort: boolean;
  /** The count in words: "12 of 400 characters", "3 characters, at least 10". */
  text: string;
}

const characters = (n: number) => (n === 1 ? '1 character' : `${n} characters`);

/** The count for a field's value against its `maxlength` and `minlength`, a CRLF line break counted once. */
export function characterCount(value: string, field: Pick<ContactField, 'maxlength' | 'minlength'>): CharacterCount {
  const count = value.length - (value.match(/\r\n/g)?.length ?? 0);
  const maximum = field.maxlength || undefined;
  const minimum = field.minlength || undefined;
  const counted = maximum ? `${count} of ${characters(maximum)}` : characters(count);
  return {
    count,
    maximum,
    minimum,
    tooLong: maximum !== undefined && count > maximum,
    tooShort: minimum !== undefined && count > 0 && count < minimum,
    text: minimum ? `${counted}, at least ${minimum}` : counted,
  };
}

/** What the form shows beside its fields. */
export interface FormControls {
  /** Every acceptance box as it must be: the form may be sent. */
  accepted: boolean;
  /** Free-text inputs open, by field. */
  freeText: Record<string, boolean>;
  /** The text of each field with a counter, by field. */
  texts: Record<string, string>;
  /** Each slider's value, by field. */
  ranges: Record<string, string>;
}

/** The controls as the definition starts them, before the page runs (and on the server). */
export function initialControls(fields: ContactField[]): FormControls {
  const first = (field: ContactField) => field.default?.[0] ?? '';
  return controlsFrom(fields, (field) => (['checkbox', 'radio'].includes(field.type) ? (field.default ?? []) : [first(field)]), () => false);
}

/** The controls as the form's elements stand. */
export function readControls(form: HTMLFormElement, fields: ContactField[]): FormControls {
  const elements = [...form.elements] as HTMLInputElement[];
  const named = (name: string) => elements.filter((element) => element.name === name || element.name === `${name}[]`);
  const values = (field: ContactField) =>
    named(field.name)
      .filter((element) => !['checkbox', 'radio'].includes(element.type) || element.checked)
      .map((element) => element.value);
  const isTicked = (name: string) => named(name).some((element) => element.checked);
  return controlsFrom(fields, values, isTicked);
}

function controlsFrom(fields: ContactField[], values: (field: ContactField) => string[], isTicked: (name: string) => boolean): FormControls {
  const controls: FormControls = { accepted: acceptanceGiven(fields, isTicked), freeText: {}, texts: {}, ranges: {} };
  for (const field of fields) {
    if (field.free_text && (field.type === 'checkbox' || field.type === 'radio')) controls.freeText[field.name] = freeTextOpen(field, values(field));
    if (hasCounter(field)) controls.texts[field.name] = values(field)[0] ?? '';
    if (field.type === 'range') controls.ranges[field.name] = values(field)[0] ?? '';
  }
  return controls;
}

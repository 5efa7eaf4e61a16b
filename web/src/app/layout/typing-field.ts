// Whether the shopper is filling in a form, with the phone's on-screen keyboard up:
// while they are, the footer bar steps aside (the keyboard would push it up over the
// form). That is from the first field that takes typing until focus leaves its form,
// so a tap on the form's other controls (a password's Show button, a checkbox) does
// not bring the bar back under the finger.

/** Inputs that take no typing: focusing them raises no keyboard. */
const NO_KEYBOARD_INPUTS = new Set(['button', 'checkbox', 'color', 'file', 'hidden', 'image', 'radio', 'range', 'reset', 'submit']);

/** The body's class while such a field outside the footer bar has focus (the
 *  original theme's name for it). */
export const INPUT_FOCUSED_CLASS = 'sf-input-focused';

export function isTypingField(element: Element | null): boolean {
  if (!element) return false;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  if (element instanceof HTMLInputElement) return !NO_KEYBOARD_INPUTS.has(element.type);
  return element instanceof HTMLElement && element.isContentEditable === true;
}

/**
 * Whether focus on `element` keeps the bar out of the way: a field that takes typing,
 * or anything in the form of the field the shopper was typing in (`typingIn`); never
 * something in the bar itself.
 */
export function hidesFooterBar(element: Element | null, bar: Element | null, typingIn: Element | null = null): boolean {
  if (!element || (bar?.contains(element) ?? false)) return false;
  if (isTypingField(element)) return true;
  const form = typingIn?.closest('form');
  return form ? form.contains(element) : false;
}

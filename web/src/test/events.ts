// Events for tests that fire them by hand. The DOM testing library's fireEvent, each
// call inside Preact's act() so the page has rendered before the next line (the
// Preact testing library's own wrapper renames events, sending `input` for a select's
// `change`). And what a browser sends when the shopper edits a field: a new value
// comes with `input` and then `change`; leaving a field, `blur` and then `focusout`.
import { fireEvent as domFireEvent } from '@testing-library/dom';
import { act } from 'preact/test-utils';

type Fire = typeof domFireEvent;

function acted<T>(fire: () => T): T {
  let result!: T;
  act(() => {
    result = fire();
  });
  return result;
}

export const fireEvent = ((element: Element | Node | Document | Window, event: Event) =>
  acted(() => domFireEvent(element, event))) as Fire;
for (const key of Object.keys(domFireEvent) as (keyof Fire)[]) {
  const fire = domFireEvent[key] as (element: unknown, init?: object) => boolean;
  (fireEvent as unknown as Record<string, unknown>)[key] = (element: unknown, init?: object) => acted(() => fire(element, init));
}

export function setValue(element: Element, value: string) {
  fireEvent.input(element, { target: { value } });
  fireEvent.change(element, { target: { value } });
}

export function leave(element: Element) {
  fireEvent.blur(element);
  fireEvent.focusOut(element);
}

// What a visitor typed into a server-rendered form before the page's scripts took it
// over: the inputs show it, but the form's state never heard of it (no handler was
// listening yet), so the form's first re-render would clear it. Read once, after the
// takeover, into that state; a field the visitor has typed into since is left alone.
import { useEffect, type RefObject } from 'react';

export function useTypedBeforeTakeover(form: RefObject<HTMLFormElement | null>, fields: Record<string, (typed: string) => void>) {
  useEffect(() => {
    const elements = form.current?.elements;
    if (!elements) return;
    for (const [name, adopt] of Object.entries(fields)) {
      const input = elements.namedItem(name);
      if (input instanceof HTMLInputElement && input.value) adopt(input.value);
    }
    // Once: at the takeover.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

import { hydrate } from 'preact';
import { act } from 'preact/test-utils';
import { useRef, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useTypedBeforeTakeover } from './use-typed-before-takeover';

function Form() {
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  const form = useRef<HTMLFormElement>(null);
  useTypedBeforeTakeover(form, {
    name: (typed) => setName((current) => current || typed),
    note: (typed) => setNote((current) => current || typed),
  });
  return (
    <form ref={form}>
      <input name="name" value={name} onInput={(event) => setName(event.currentTarget.value)} />
      <input name="note" value={note} onInput={(event) => setNote(event.currentTarget.value)} />
      <output>{`${name}|${note}`}</output>
    </form>
  );
}

describe('a server-rendered form taken over by the page', () => {
  it('keeps what was typed before the takeover in its state, so a re-render shows it', async () => {
    const root = document.createElement('div');
    root.innerHTML = '<form><input name="name" value=""><input name="note" value=""><output>|</output></form>';
    document.body.append(root);
    root.querySelector<HTMLInputElement>('input[name="name"]')!.value = 'Ada';
    await act(async () => {
      hydrate(<Form />, root);
    });
    expect(root.querySelector('output')!.textContent).toBe('Ada|');
    // Typing after the takeover goes through the form's handlers as usual.
    const note = root.querySelector<HTMLInputElement>('input[name="note"]')!;
    await act(async () => {
      note.value = 'gift';
      note.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(root.querySelector('output')!.textContent).toBe('Ada|gift');
    expect(root.querySelector<HTMLInputElement>('input[name="name"]')!.value).toBe('Ada');
    root.remove();
  });
});

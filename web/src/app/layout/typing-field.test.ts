import { afterEach, describe, expect, it } from 'vitest';
import { hidesFooterBar, isTypingField } from './typing-field';

function make(html: string): HTMLElement {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  document.body.append(holder);
  return holder;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('a field that raises the on-screen keyboard', () => {
  it('is a text-like input, a text area or a select', () => {
    const page = make(`
      <input id="text"><input id="search" type="search"><input id="email" type="email"><input id="password" type="password">
      <input id="number" type="number"><textarea id="note"></textarea><select id="country"><option>DE</option></select>`);
    for (const id of ['text', 'search', 'email', 'password', 'number', 'note', 'country']) {
      expect(isTypingField(page.querySelector(`#${id}`)), id).toBe(true);
    }
  });

  it('is not a checkbox, radio, button or link', () => {
    const page = make(`<input id="box" type="checkbox"><input id="radio" type="radio"><input id="send" type="submit"><button id="button">Go</button><a id="link" href="/">Home</a>`);
    for (const id of ['box', 'radio', 'send', 'button', 'link']) {
      expect(isTypingField(page.querySelector(`#${id}`)), id).toBe(false);
    }
    expect(isTypingField(null)).toBe(false);
  });
});

describe('the footer bar steps aside', () => {
  it('for the rest of the form the shopper is typing in, not for a form merely tapped', () => {
    const page = make(`<form id="login"><input id="password" type="password"><button id="show" type="button">Show</button><input id="remember" type="checkbox"></form><form id="cart"><button id="add">Add to cart</button></form>`);
    const [password, show, remember, add] = ['#password', '#show', '#remember', '#add'].map((id) => page.querySelector(id));
    expect(hidesFooterBar(show!, null)).toBe(false);
    expect(hidesFooterBar(remember!, null)).toBe(false);
    expect(hidesFooterBar(show!, null, password!)).toBe(true);
    expect(hidesFooterBar(remember!, null, password!)).toBe(true);
    expect(hidesFooterBar(add!, null, password!)).toBe(false);
  });

  it('while a field outside it has focus, not for one inside it', () => {
    const page = make(`<form><input id="outside"></form><nav id="bar"><input id="inside"></nav>`);
    const bar = page.querySelector('#bar');
    expect(hidesFooterBar(page.querySelector('#outside'), bar)).toBe(true);
    expect(hidesFooterBar(page.querySelector('#inside'), bar)).toBe(false);
    expect(hidesFooterBar(document.body, bar)).toBe(false);
  });
});

// The storefront's components import React (compat), which installs its handling of
// elements; the comparison below needs it in place.
import 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { installMarkupProps, markupProps, SVG_NAMES } from './element-props';

describe("elements' props on the server", () => {
  it('renames SVG presentation attributes to their dashed names and leaves the rest', () => {
    const onClick = () => undefined;
    expect(markupProps({ strokeWidth: 1.8, strokeLinecap: 'round', fill: 'none', viewBox: '0 0 24 24', onClick })).toEqual({
      'stroke-width': 1.8,
      'stroke-linecap': 'round',
      fill: 'none',
      viewBox: '0 0 24 24',
      onClick,
    });
    expect(SVG_NAMES.get('fillRule')).toBe('fill-rule');
    expect(SVG_NAMES.get('colorInterpolationFilters')).toBe('color-interpolation-filters');
  });

  it('keeps the props object itself when nothing is renamed', () => {
    const props = { className: 'icon', 'aria-hidden': true };
    expect(markupProps(props)).toBe(props);
  });

  it('renders the HTML compat would, for SVG, forms and classes', () => {
    // Elements get their props' handling when made, so each render makes its own.
    const page = () => (
      <form className="search">
        <label htmlFor="q">Search</label>
        <input id="q" defaultValue="hoodie" onChange={() => undefined} />
        <select value="b" onChange={() => undefined} aria-label="Sort">
          <option value="a">A</option>
          <option value="b">B</option>
        </select>
        <svg viewBox="0 0 24 24" strokeWidth={1.8} aria-hidden="true">
          <path d="M4 7h16" strokeLinecap="round" />
        </svg>
      </form>
    );
    const withCompat = renderToString(page());
    installMarkupProps();
    const lean = renderToString(page());
    const attributes = (html: string) =>
      [...html.matchAll(/<(\w+)([^>]*)>/g)].map(([, tag, rest]) => [tag, [...rest!.matchAll(/\s([^\s=]+)(="[^"]*")?/g)].map((m) => m[0]).sort()]);
    expect(attributes(lean)).toEqual(attributes(withCompat));
    expect(lean.replace(/<[^>]*>/g, '')).toBe(withCompat.replace(/<[^>]*>/g, ''));
    expect(lean).toContain('stroke-width="1.8"');
    expect(lean).toMatch(/<option (selected value="b"|value="b" selected)>/);
  });
});

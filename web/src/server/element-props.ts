// Elements' props on the server. In the browser, preact/compat rewrites every
// element's props the way the DOM needs them from React code (React's event names,
// refs, a select's value): a new props object and a pattern test per prop, for every
// element. A listing page has some seven hundred elements, and in the server's
// embedded engine that rewriting was a quarter of the page's render.
//
// The HTML needs only one part of it: SVG presentation attributes, written in React's
// camelCase (`strokeWidth`), are dashed in markup (`stroke-width`). The renderer does
// the rest itself (`className`, `htmlFor`, `defaultValue`, a select's value, numbers in
// styles), and event handlers and refs do not reach HTML at all. So on the server an
// element gets only the SVG names; components keep compat's handling (refs on class
// components, default props).
import { options, type VNode } from 'preact';

/** SVG 2's presentation attributes with a dash in their name (those React writes in camelCase). */
const PRESENTATION_ATTRIBUTES = [
  'alignment-baseline',
  'baseline-shift',
  'clip-path',
  'clip-rule',
  'color-interpolation',
  'color-interpolation-filters',
  'dominant-baseline',
  'fill-opacity',
  'fill-rule',
  'flood-color',
  'flood-opacity',
  'font-family',
  'font-size',
  'font-size-adjust',
  'font-stretch',
  'font-style',
  'font-variant',
  'font-weight',
  'image-rendering',
  'letter-spacing',
  'lighting-color',
  'marker-end',
  'marker-mid',
  'marker-start',
  'paint-order',
  'pointer-events',
  'shape-rendering',
  'stop-color',
  'stop-opacity',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-opacity',
  'stroke-width',
  'text-anchor',
  'text-decoration',
  'text-rendering',
  'transform-origin',
  'unicode-bidi',
  'vector-effect',
  'word-spacing',
  'writing-mode',
];

/** `strokeWidth` → `stroke-width`, for each of them. */
export const SVG_NAMES: ReadonlyMap<string, string> = new Map(
  PRESENTATION_ATTRIBUTES.map((name) => [name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()), name]),
);

/** The element's props with SVG presentation attributes under their markup names. */
export function markupProps(props: Record<string, unknown>): Record<string, unknown> {
  let renamed: Record<string, unknown> | null = null;
  for (const name in props) {
    const markup = SVG_NAMES.get(name);
    if (markup === undefined) continue;
    renamed ??= { ...props };
    renamed[markup] = props[name];
    delete renamed[name];
  }
  return renamed ?? props;
}

const REACT_ELEMENT = Symbol.for('react.element');

/** Installs the server's handling of elements in place of compat's (components keep compat's). */
export function installMarkupProps(): void {
  const compat = options.vnode;
  options.vnode = (vnode: VNode) => {
    if (typeof vnode.type === 'string') {
      vnode.props = markupProps(vnode.props as Record<string, unknown>) as typeof vnode.props;
      // What compat marks every element with, so `isValidElement` holds for them too.
      (vnode as { $$typeof?: symbol }).$$typeof = REACT_ELEMENT;
    } else {
      compat?.(vnode);
    }
  };
}

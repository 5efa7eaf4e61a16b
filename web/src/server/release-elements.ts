// What a server render leaves behind. Rendering links each element to its parent and
// to the component that rendered it, and each component back to its element: a cycle
// per element, so the whole page's tree outlives its render until the engine walks
// its heap for cycles (reference counting alone cannot free it). That walk takes the
// engine away from the next page for milliseconds. Once an element is written out
// (the renderer "unmounts" it, after its children), nothing reads those links again,
// so they are cut there and the tree is freed as the render goes.
import { options, type VNode } from 'preact';

// Preact's internal field names, as its renderers use them (preact-render-to-string's
// constants): the element's component and parent, its rendered children, and the
// component's element.
const COMPONENT = '__c';
const PARENT = '__';
const CHILDREN = '__k';
const ELEMENT = '__v';

type Linked = Record<string, unknown>;

/** Cuts an element's links to its parent, children and component, and the component's back to it. */
export function releaseElement(vnode: VNode): void {
  const element = vnode as unknown as Linked;
  const component = element[COMPONENT] as Linked | null | undefined;
  if (component) component[ELEMENT] = null;
  element[COMPONENT] = null;
  element[PARENT] = null;
  element[CHILDREN] = null;
}

/** Cuts each element's links once the renderer is done with it (after the hooks' own
 *  clean-up); answers how to put the previous handling back. */
export function installElementRelease(): () => void {
  const previous = options.unmount;
  options.unmount = (vnode) => {
    previous?.(vnode);
    releaseElement(vnode);
  };
  return () => {
    options.unmount = previous;
  };
}

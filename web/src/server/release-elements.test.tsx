import { Component, useState, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { installElementRelease } from './release-elements';

type Linked = Record<string, unknown>;

/** Class components, so the test can hold the instances the render made. */
const made: Component[] = [];
class Kept extends Component<{ children?: ReactNode }> {
  constructor(props: { children?: ReactNode }) {
    super(props);
    made.push(this);
  }
  override render() {
    return <section>{this.props.children}</section>;
  }
}

function Counter() {
  const [count] = useState(2);
  return <p>{count} items</p>;
}

describe('elements released after a server render', () => {
  let restore: (() => void) | null = null;
  afterEach(() => {
    restore?.();
    restore = null;
    made.length = 0;
  });

  it('cuts the links between elements and their components once written, and the HTML is unchanged', () => {
    const page = () => (
      <Kept>
        <Kept>
          <Counter />
        </Kept>
      </Kept>
    );
    const before = renderToString(page());
    // Without the release, the renderer leaves an element and its component linked.
    expect((made[0] as unknown as Linked).__v).toBeTruthy();
    made.length = 0;

    restore = installElementRelease();
    const tree = page();
    const after = renderToString(tree);
    expect(after).toBe(before);
    expect(after).toBe('<section><section><p>2 items</p></section></section>');
    expect(made).toHaveLength(2);
    for (const instance of made) expect((instance as unknown as Linked).__v).toBeNull();
    const root = tree as unknown as Linked;
    expect(root.__c).toBeNull();
    expect(root.__k).toBeNull();
  });
});

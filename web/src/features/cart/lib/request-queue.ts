// Cart writes reach the server one at a time, in the order the shopper made them,
// as the original shop's add-to-cart handler queues its requests. A failed request
// does not hold up the ones behind it.

export type Enqueue = <T>(task: () => Promise<T>) => Promise<T>;

export function createRequestQueue(): Enqueue {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task);
    // The next task waits for this one to settle, whatever the outcome.
    tail = run.catch(() => undefined);
    return run;
  };
}

/** The queue every cart write of this page goes through. */
export const enqueueCartRequest: Enqueue = createRequestQueue();

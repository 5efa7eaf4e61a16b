import { describe, expect, it } from 'vitest';
import { createRequestQueue } from './request-queue';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the cart request queue', () => {
  it('sends one request at a time, starting the next only when the previous has settled', async () => {
    const enqueue = createRequestQueue();
    const first = deferred<string>();
    const started: string[] = [];

    const a = enqueue(() => {
      started.push('a');
      return first.promise;
    });
    const b = enqueue(async () => {
      started.push('b');
      return 'b';
    });

    await flush();
    expect(started).toEqual(['a']);

    first.resolve('a');
    await expect(a).resolves.toBe('a');
    await expect(b).resolves.toBe('b');
    expect(started).toEqual(['a', 'b']);
  });

  it('keeps the order in which requests were queued', async () => {
    const enqueue = createRequestQueue();
    const finished: number[] = [];
    const delays = [30, 5, 15, 0];
    await Promise.all(
      delays.map((delay, index) =>
        enqueue(
          () =>
            new Promise<void>((resolve) =>
              setTimeout(() => {
                finished.push(index);
                resolve();
              }, delay),
            ),
        ),
      ),
    );
    expect(finished).toEqual([0, 1, 2, 3]);
  });

  it('goes on with the next request after one fails, and hands the failure to its caller', async () => {
    const enqueue = createRequestQueue();
    const failing = enqueue(() => Promise.reject(new Error('offline')));
    const next = enqueue(async () => 'sent');

    await expect(failing).rejects.toThrow('offline');
    await expect(next).resolves.toBe('sent');
  });

  it('goes on after a request that throws before returning a promise', async () => {
    const enqueue = createRequestQueue();
    const failing = enqueue(() => {
      throw new Error('bad input');
    });
    await expect(failing).rejects.toThrow('bad input');
    await expect(enqueue(async () => 1)).resolves.toBe(1);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANGE_REFRESH_DELAY_MS, RefreshScheduler, TYPING_REFRESH_DELAY_MS } from './refresh-scheduler';

describe('the order review refresh scheduler', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup() {
    const signals: AbortSignal[] = [];
    const refresh = vi.fn((signal: AbortSignal) => {
      signals.push(signal);
      return new Promise<void>(() => {});
    });
    return { scheduler: new RefreshScheduler(refresh), refresh, signals };
  }

  it('waits a full second after typing before refreshing', async () => {
    const { scheduler, refresh } = setup();
    scheduler.afterTyping(() => true);
    await vi.advanceTimersByTimeAsync(TYPING_REFRESH_DELAY_MS - 1);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('restarts the second with every keystroke', async () => {
    const { scheduler, refresh } = setup();
    scheduler.afterTyping(() => true);
    await vi.advanceTimersByTimeAsync(800);
    scheduler.afterTyping(() => true);
    await vi.advanceTimersByTimeAsync(800);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(200);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('skips the refresh after typing while a visible required address field is still empty', async () => {
    const { scheduler, refresh } = setup();
    let filled = false;
    scheduler.afterTyping(() => filled);
    await vi.advanceTimersByTimeAsync(TYPING_REFRESH_DELAY_MS);
    expect(refresh).not.toHaveBeenCalled();
    filled = true;
    scheduler.afterTyping(() => filled);
    await vi.advanceTimersByTimeAsync(TYPING_REFRESH_DELAY_MS);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('refreshes 5 ms after other changes', async () => {
    const { scheduler, refresh } = setup();
    scheduler.afterChange();
    await vi.advanceTimersByTimeAsync(CHANGE_REFRESH_DELAY_MS - 1);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('replaces a waiting refresh with the newer one: a change cancels the typing pause', async () => {
    const { scheduler, refresh } = setup();
    scheduler.afterTyping(() => true);
    await vi.advanceTimersByTimeAsync(300);
    scheduler.afterChange();
    await vi.advanceTimersByTimeAsync(CHANGE_REFRESH_DELAY_MS);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(TYPING_REFRESH_DELAY_MS);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('aborts the refresh still running when the next one starts', async () => {
    const { scheduler, refresh, signals } = setup();
    scheduler.afterChange();
    await vi.advanceTimersByTimeAsync(CHANGE_REFRESH_DELAY_MS);
    expect(signals[0]!.aborted).toBe(false);
    scheduler.afterChange();
    // Only waiting so far: the first request carries on until the second one starts.
    expect(signals[0]!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(CHANGE_REFRESH_DELAY_MS);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[1]!.aborted).toBe(false);
  });

  it('drops everything when cancelled', async () => {
    const { scheduler, refresh, signals } = setup();
    scheduler.afterChange();
    await vi.advanceTimersByTimeAsync(CHANGE_REFRESH_DELAY_MS);
    scheduler.afterTyping(() => true);
    scheduler.cancel();
    expect(signals[0]!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(TYPING_REFRESH_DELAY_MS);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(scheduler.busy).toBe(false);
  });
});

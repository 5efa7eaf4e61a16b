// When the order review is worked out again, as the original checkout times it:
// typing in an address field waits for a one-second pause and goes ahead only if the
// address is complete enough to price; other changes (a select, a shipping or payment
// choice, the ship-elsewhere box) go after 5 ms. A refresh waiting to start is
// replaced by a newer one, and a refresh still running is aborted when the next starts.

export const TYPING_REFRESH_DELAY_MS = 1000;
export const CHANGE_REFRESH_DELAY_MS = 5;

export type Refresh = (signal: AbortSignal) => Promise<unknown> | void;

export class RefreshScheduler {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: AbortController | null = null;
  private readonly refresh: Refresh;

  constructor(refresh: Refresh) {
    this.refresh = refresh;
  }

  /** After a keystroke in an address field; `ready` is asked when the pause is over. */
  afterTyping(ready: () => boolean): void {
    this.schedule(TYPING_REFRESH_DELAY_MS, ready);
  }

  /** After any other change that can alter shipping, taxes or totals. */
  afterChange(): void {
    this.schedule(CHANGE_REFRESH_DELAY_MS);
  }

  /** Whether a refresh is waiting or running. */
  get busy(): boolean {
    return this.timer !== null || this.running !== null;
  }

  /** Drops the waiting refresh and aborts the running one (the page is going away). */
  cancel(): void {
    this.clearTimer();
    this.running?.abort();
    this.running = null;
  }

  private schedule(delay: number, ready?: () => boolean): void {
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      if (ready && !ready()) return;
      this.start();
    }, delay);
  }

  private start(): void {
    this.running?.abort();
    const controller = new AbortController();
    this.running = controller;
    Promise.resolve()
      .then(() => this.refresh(controller.signal))
      .catch(() => {
        // The refresh reports its own failures; an aborted one has nothing to report.
      })
      .finally(() => {
        if (this.running === controller) this.running = null;
      });
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

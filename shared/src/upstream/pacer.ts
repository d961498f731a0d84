/**
 * Client-side rate limiting: requests of one class (writes, searches) start at least
 * `minIntervalMs` apart, and at most `maxConcurrent` requests of any class are in flight. Waiting
 * is abortable so a cancelled tool call leaves the queue at once.
 */

/** The longest delay Node's setTimeout honours (2^31−1 ms, ~24.8 days); longer ones become 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Resolves after `ms`, or rejects with the signal's reason when it aborts first. A delay over
 * {@link MAX_TIMER_MS} is waited in chunks (setTimeout would otherwise fire after 1 ms with a
 * TimeoutOverflowWarning).
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (!(ms > 0)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout>;
    const arm = (left: number) => {
      timer = setTimeout(
        () => {
          if (left > MAX_TIMER_MS) return arm(left - MAX_TIMER_MS);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.min(left, MAX_TIMER_MS),
      );
    };
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    arm(ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Spaces out starts of one class of request. */
export class IntervalGate {
  private next = 0;
  constructor(private readonly minIntervalMs: number) {}

  /** Waits for this request's slot (slots are handed out in call order). */
  async pass(signal?: AbortSignal): Promise<void> {
    if (this.minIntervalMs <= 0) return;
    const now = Date.now();
    const slot = Math.max(now, this.next);
    this.next = slot + this.minIntervalMs;
    await sleep(slot - now, signal);
  }
}

/** Bounds the number of concurrent tasks. */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly max: number) {}

  /** Runs `task` when a slot is free; an abort while queued rejects with the signal's reason. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.active < this.max) this.active++;
    else {
      // Woken by a finishing task, which hands its slot over (active stays the same).
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const i = this.waiting.indexOf(wake);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(signal?.reason);
        };
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(wake);
      });
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * Progress notifications for long tool calls (MCP spec 2025-11-25, "Progress"): sent only when the
 * request carried `_meta.progressToken`, each value greater than the last (the spec's MUST), at most
 * one per {@link PROGRESS_INTERVAL_MS} (the first at once), and never after the call has answered.
 * SDK clients reset their request timeout (60 s by default) on each one when asked to
 * (`resetTimeoutOnProgress`), so long walks, queries and pagings are not cut off client-side.
 */
import type { ProgressToken } from '@modelcontextprotocol/server';

/** Least time between two progress notifications of one call, in milliseconds. */
export const PROGRESS_INTERVAL_MS = 250;

/** How a handler reports progress. */
export interface Progress {
  /**
   * `done` units of work (files walked, rows fetched, pages read; a count that only grows) of `total`
   * when known, with a short `message`. Dropped when not above the last value sent or sooner than
   * the interval after it; never throws, never waits.
   */
  report(done: number, total?: number, message?: string): void;
}

/** What sends one notification (the request's `notify`). */
export type ProgressSink = (params: {
  progressToken: ProgressToken;
  progress: number;
  total?: number;
  message?: string;
}) => Promise<void>;

/**
 * A {@link Progress} for a request with `token`, or undefined without one. `finished()` is true once
 * the call has answered (later reports are dropped).
 */
export function progressReporter(
  token: ProgressToken | undefined,
  sink: ProgressSink,
  finished: () => boolean,
  now: () => number = Date.now,
): Progress | undefined {
  if (token === undefined) return undefined;
  let last = Number.NEGATIVE_INFINITY;
  let lastAt = Number.NEGATIVE_INFINITY;
  return {
    report(done, total, message) {
      if (!(done > last) || finished()) return;
      const at = now();
      if (at - lastAt < PROGRESS_INTERVAL_MS) return;
      last = done;
      lastAt = at;
      sink({
        progressToken: token,
        progress: done,
        ...(total !== undefined ? { total } : {}),
        ...(message ? { message } : {}),
      }).catch(() => {}); // a client that has gone is not the call's failure
    },
  };
}

/**
 * Awaits `work`, reporting the seconds it has taken every `everyMs` (a heartbeat for waits that have
 * no count of their own: a query the engine runs, a page loading), with `message(seconds)`. The first
 * report goes out at once. Without `progress` it is `work` itself: no timer, no new promise (the fast
 * path of a call that asked for no progress costs nothing).
 */
export function withHeartbeat<T>(
  progress: Progress | undefined,
  work: Promise<T>,
  message: (seconds: number) => string,
  everyMs = 1000,
): Promise<T> {
  return progress ? beating(progress, work, message, everyMs) : work;
}

async function beating<T>(
  progress: Progress,
  work: Promise<T>,
  message: (seconds: number) => string,
  everyMs: number,
): Promise<T> {
  const beat = startHeartbeat(progress, message, everyMs);
  try {
    return await work;
  } finally {
    beat.stop();
  }
}

/** A running heartbeat (see {@link startHeartbeat}). */
export interface Heartbeat {
  /** Reports now (e.g. when a phase changes), within the reporter's rate limit. */
  now(): void;
  /** Stops the beats; idempotent. */
  stop(): void;
}

/**
 * Starts reporting the seconds since now every `everyMs`, with `message(seconds)` (read at each beat,
 * so it can name the current phase of the work), the first report at once. For work with phases
 * (a navigation: request, response, load); {@link withHeartbeat} for one awaited promise. The caller
 * must `stop()` it when the work ends.
 */
export function startHeartbeat(
  progress: Progress,
  message: (seconds: number) => string,
  everyMs = 1000,
): Heartbeat {
  const start = Date.now();
  let beat = 0;
  const report = () => progress.report(beat++, undefined, message(Math.round((Date.now() - start) / 1000)));
  report();
  const timer = setInterval(report, everyMs);
  return { now: report, stop: () => clearInterval(timer) };
}

/** A heartbeat over a known count of units (see {@link countedHeartbeat}). */
export interface CountedHeartbeat extends Heartbeat {
  /** Counts one unit done and reports now (within the reporter's rate limit). */
  tick(): void;
}

/**
 * A heartbeat over `total` units of work that finish in any order (job logs downloaded at once,
 * pages fetched): each beat's message is "`done` of `total` `what`, N s", so a slow unit (a large
 * log) still resets the client's timeout while the count shows how far the work is. Undefined
 * without `progress` (nothing started). The caller must `stop()` it when the work ends.
 */
export function countedHeartbeat(
  progress: Progress | undefined,
  total: number,
  what: string,
  everyMs = 1000,
): CountedHeartbeat | undefined {
  if (!progress) return undefined;
  let done = 0;
  const beat = startHeartbeat(progress, (s) => `${done} of ${total} ${what}, ${s} s`, everyMs);
  return {
    ...beat,
    tick() {
      done++;
      beat.now();
    },
  };
}

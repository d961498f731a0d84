/**
 * The process-wide cap on extraction workers (run.ts): at most {@link MAX_WORKERS} extractions run
 * at once and at most that many worker threads are alive (the long-lived PDF and HTML workers
 * included), so a burst of hostile pages or documents costs at most MAX_WORKERS × the heap ceiling
 * (2 × 512 MiB for pages, 2 × 1536 MiB for documents), not one ceiling per call. Further requests
 * wait in order (FIFO), each within its own time limit and abort signal — a wait is what a caller
 * of fetch_url or a document read expects, rather than a refusal it would have to retry — and at
 * most {@link MAX_QUEUED} wait; one more is refused at once as busy.
 *
 * Why 2: an extraction is CPU-bound on one thread, and the machines these servers run on (and the
 * 2-core CI this is measured on) gain no throughput from more at once, only memory use; 2 still
 * lets one slow hostile page not block every other call.
 */

/** Extractions running at once, and worker threads alive at once, process-wide. */
export const MAX_WORKERS = 2;
/** Requests waiting for a free worker at most; one more is refused as busy. */
export const MAX_QUEUED = 32;

/** Counts for tests and diagnostics: threads alive, extractions running, requests waiting, most threads ever alive at once. */
export interface WorkerCounts {
  live: number;
  running: number;
  queued: number;
  peakLive: number;
}

let live = 0;
let peakLive = 0;
let running = 0;
const queue: (() => void)[] = [];
let exitWaiters: (() => void)[] = [];

/** The current {@link WorkerCounts}. */
export function workerCounts(): WorkerCounts {
  return { live, running, queued: queue.length, peakLive };
}

/** Records a started worker thread; call `exited` once it has exited. */
export function workerStarted(): { exited: () => void } {
  live++;
  peakLive = Math.max(peakLive, live);
  let done = false;
  return {
    exited: () => {
      if (done) return;
      done = true;
      live--;
      const waiters = exitWaiters;
      exitWaiters = [];
      for (const wake of waiters) wake();
    },
  };
}

/** Resolves when some worker thread next exits. */
export function nextExit(): Promise<void> {
  return new Promise((resolve) => exitWaiters.push(resolve));
}

/** Worker threads alive now. */
export function liveWorkers(): number {
  return live;
}

/**
 * Waits for one of the {@link MAX_WORKERS} run slots, in arrival order. `stop` registers a function
 * called with an error to give up the wait (timeout or abort) and is handed back an unregister
 * function. Errors: `busyError()` at once when {@link MAX_QUEUED} already wait; the stop error.
 * Call the returned release exactly once when the run is over.
 */
export function acquireSlot(
  onStop: (giveUp: (error: Error) => void) => () => void,
  busyError: () => Error,
): Promise<() => void> {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    const next = queue.shift();
    if (next) next();
    else running--;
  };
  if (running < MAX_WORKERS) {
    running++;
    return Promise.resolve(release);
  }
  if (queue.length >= MAX_QUEUED) return Promise.reject(busyError());
  return new Promise((resolve, reject) => {
    // The slot passes from the releasing run to this one directly (running stays as it was).
    let unregister: (() => void) | undefined;
    const granted = () => {
      unregister?.();
      resolve(release);
    };
    queue.push(granted);
    unregister = onStop((error) => {
      const at = queue.indexOf(granted);
      if (at < 0) return;
      queue.splice(at, 1);
      unregister?.();
      reject(error);
    });
  });
}

/**
 * Runs one extraction in a worker_thread: its own heap with a ceiling (resourceLimits), a wall-clock
 * timeout after which the worker is terminated, and the caller's abort signal. A hostile file can
 * exhaust only the worker: the server gets an ExtractError naming why, never a crash or a hang.
 * PDFs go to one long-lived worker that keeps what it parsed (a cursor continuation of a long PDF
 * does not parse it again); fetched HTML pages (convertHtml) to another, so a page costs no worker
 * start-up. Each is ended on any timeout, abort or crash and after 2 idle minutes. At most
 * MAX_WORKERS (2) run and are alive at once process-wide; further requests wait their turn within
 * their own time limit (pool.ts).
 */
import { Worker } from 'node:worker_threads';
import { ExtractError } from './errors.js';
import { acquireSlot, liveWorkers, MAX_QUEUED, MAX_WORKERS, nextExit, workerStarted } from './pool.js';
import type {
  ConvertedArticle,
  DocumentKind,
  DocumentPosition,
  ExtractedDocument,
  ExtractLimits,
  ExtractRequest,
  HtmlRequest,
  WorkerMessage,
  WorkerReply,
} from './types.js';

/** Defaults of {@link ExtractOptions}. */
export const DOCUMENT_DEFAULTS = Object.freeze({
  limits: Object.freeze<ExtractLimits>({
    maxBytes: 64 * 1024,
    maxRows: 500,
    maxParts: 50,
    maxImageBytes: 1024 * 1024,
    maxImageSide: 8000,
  }),
  /** Largest document given to a worker: 100 MiB. */
  maxInputBytes: 100 * 1024 * 1024,
  /** Zip containers may inflate to 512 MiB in all (a 50 MB .xlsx inflates to about 300 MiB). */
  maxInflatedBytes: 512 * 1024 * 1024,
  /** Images may decode to 50 megapixels (200 MB of RGBA). */
  maxImagePixels: 50_000_000,
  /** The worker's old-generation heap ceiling, MiB. */
  maxHeapMb: 1536,
  timeoutMs: 60_000,
});

export interface ExtractOptions {
  start?: DocumentPosition;
  lastPart?: number;
  limits?: Partial<ExtractLimits>;
  maxInputBytes?: number;
  maxInflatedBytes?: number;
  maxImagePixels?: number;
  maxHeapMb?: number;
  /** Wall-clock ceiling of the extraction, ms; the worker is terminated past it. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

let workerUrl: URL | string = new URL('./document-worker.js', import.meta.url);

/**
 * Where the bundled worker script is. Servers ship it beside their bundle (the default: a
 * document-worker.js next to the running script); tests that run from source point this at a
 * worker they built.
 */
export function setDocumentWorker(url: URL | string): void {
  workerUrl = url;
}

const MiB = (n: number) => `${Math.round(n / 2 ** 20)} MiB`;

/**
 * Which long-lived worker serves a request: 'pdf' (keeps parsed PDFs, parsed-cache.ts) or 'html'
 * (fetched pages: it keeps nothing, it saves the start-up). Other families get a worker of their own.
 */
type Lane = 'pdf' | 'html';
/** A long-lived worker idle this long is ended (its parsed documents with it): 2 minutes. */
export const WARM_WORKER_IDLE_MS = 120_000;

/** A long-lived worker: it serves one request at a time; a second meanwhile gets its own. */
interface Warm {
  lane: Lane;
  worker: Worker;
  heapMb: number;
  busy: boolean;
  idle?: NodeJS.Timeout;
}
const warm = new Map<Lane, Warm>();
let nextId = 1;

function startWorker(heapMb: number): Worker {
  const worker = new Worker(workerUrl, {
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 8 },
    stdout: true,
    stderr: true,
    env: {},
  });
  const counted = workerStarted();
  worker.once('exit', counted.exited);
  worker.stdout.resume();
  worker.stderr.resume();
  // Errors are answered by the request in flight; one after it (or while idle) must not throw.
  worker.on('error', () => {});
  return worker;
}

function endWarm(lease: Warm): void {
  if (warm.get(lease.lane) === lease) warm.delete(lease.lane);
  clearTimeout(lease.idle);
  void lease.worker.terminate();
}

/**
 * The `lane`'s long-lived worker with heap ceiling `heapMb`, marked busy; undefined when there is
 * no lane or its worker is busy (the caller starts a worker of its own).
 */
function leaseWarm(lane: Lane | undefined, heapMb: number): Warm | undefined {
  if (!lane) return undefined;
  let lease = warm.get(lane);
  if (lease?.busy) return undefined;
  if (lease && lease.heapMb !== heapMb) {
    endWarm(lease);
    lease = undefined;
  }
  if (!lease) {
    const fresh: Warm = { lane, worker: startWorker(heapMb), heapMb, busy: false };
    fresh.worker.once('exit', () => {
      if (warm.get(lane) === fresh) warm.delete(lane);
      clearTimeout(fresh.idle);
    });
    warm.set(lane, fresh);
    lease = fresh;
  }
  lease.busy = true;
  clearTimeout(lease.idle);
  lease.worker.ref();
  return lease;
}

/** Puts a long-lived worker back: idle, not keeping the process alive, ended after {@link WARM_WORKER_IDLE_MS}. */
function releaseWarm(lease: Warm): void {
  lease.busy = false;
  lease.worker.unref();
  lease.idle = setTimeout(() => endWarm(lease), WARM_WORKER_IDLE_MS);
  lease.idle.unref();
}

/** How one run's failures are worded for the model. */
interface RunWords {
  /** After "… took longer than N s and was stopped". */
  timeout: string;
  /** After "… needed more than the N MiB allowed". */
  memory: string;
  /** The subject: 'reading it', 'converting the page'. */
  doing: string;
}

/** Whether a request on `lane` with heap ceiling `heapMb` needs a worker started (no free long-lived one fits). */
function needsNewWorker(lane: Lane | undefined, heapMb: number): boolean {
  const lease = lane ? warm.get(lane) : undefined;
  return !lease || lease.busy || lease.heapMb !== heapMb;
}

/**
 * Posts `request` to a worker (the lane's long-lived one when free, else one of its own, ended
 * after) and waits for its reply, within `timeoutMs` and the abort `signal`. The time limit also
 * covers the wait for a free worker (pool.ts): at most MAX_WORKERS run at once, an idle long-lived
 * worker is ended to make room. Errors: ExtractError ('timeout' — also while waiting, or at once
 * when MAX_QUEUED already wait —, 'memory', the worker's own failure, 'corrupt' when it stopped
 * unanswered); the signal's reason when aborted.
 */
async function runInWorker(
  request: ExtractRequest | HtmlRequest,
  transfer: ArrayBuffer[],
  run: { lane?: Lane; heapMb: number; timeoutMs: number; signal?: AbortSignal; words: RunWords },
): Promise<WorkerReply> {
  const { heapMb, timeoutMs, signal, words } = run;
  signal?.throwIfAborted();
  let waiting = true;
  let stopped: Error | undefined;
  let stop: ((error: Error) => void) | undefined;
  let rejectStopping: (error: Error) => void = () => {};
  const stopping = new Promise<never>((_, reject) => {
    rejectStopping = reject;
  });
  stopping.catch(() => {});
  const fail = (error: Error) => {
    if (stopped) return;
    stopped = error;
    rejectStopping(error);
    stop?.(error);
  };
  const timer = setTimeout(
    () =>
      fail(
        waiting
          ? new ExtractError(
              'timeout',
              `${words.doing} waited ${timeoutMs / 1000} s for a free reader (${MAX_WORKERS} already busy) and was stopped; try again shortly`,
            )
          : new ExtractError(
              'timeout',
              `${words.doing} took longer than ${timeoutMs / 1000} s and was stopped; ${words.timeout}`,
            ),
      ),
    timeoutMs,
  );
  const onAbort = () =>
    fail(
      signal?.reason instanceof Error
        ? signal.reason
        : new ExtractError('timeout', 'the request was cancelled'),
    );
  signal?.addEventListener('abort', onAbort, { once: true });
  let release: (() => void) | undefined;
  try {
    release = await acquireSlot(
      (giveUp) => {
        stop = giveUp;
        return () => {
          stop = undefined;
        };
      },
      () =>
        new ExtractError(
          'timeout',
          `the server is busy: ${MAX_WORKERS} readers are working and ${MAX_QUEUED} requests wait; try again shortly`,
        ),
    );
    // Room for a thread: end an idle long-lived worker, or wait for an ended one to exit.
    while (needsNewWorker(run.lane, heapMb) && liveWorkers() >= MAX_WORKERS) {
      if (stopped) throw stopped;
      const idle = [...warm.values()].find((lease) => !lease.busy);
      if (idle) endWarm(idle);
      await Promise.race([nextExit(), stopping]);
    }
    if (stopped) throw stopped;
    waiting = false;
    return await runOnce(request, transfer, run, (finish) => {
      stop = finish;
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    release?.();
  }
}

/** One run in a worker (runInWorker's last step); `onStop` is handed what ends it with an error. */
function runOnce(
  request: ExtractRequest | HtmlRequest,
  transfer: ArrayBuffer[],
  run: { lane?: Lane; heapMb: number; words: RunWords },
  onStop: (finish: (error: Error) => void) => void,
): Promise<WorkerReply> {
  const { heapMb, words } = run;
  const lease = leaseWarm(run.lane, heapMb);
  const worker = lease?.worker ?? startWorker(heapMb);
  // Only the long-lived worker keeps a parsed document for a continuation; one of its own keeps nothing.
  if (lease && request.kind !== 'html') request.cache = true;
  const id = nextId++;
  return new Promise<WorkerReply>((resolve, reject) => {
    let settled = false;
    /** `healthy`: the worker answered and may serve again (a long-lived one is kept). */
    const finish = (error: Error | undefined, reply?: WorkerReply, healthy = false) => {
      if (settled) return;
      settled = true;
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (lease && healthy) releaseWarm(lease);
      else if (lease) endWarm(lease);
      else void worker.terminate();
      if (error) reject(error);
      else resolve(reply as WorkerReply);
    };
    onStop((error) => finish(error));
    const onMessage = (reply: WorkerReply) => {
      if (reply.id !== id) return;
      if (reply.ok) finish(undefined, reply, true);
      else {
        const failure = reply.failure ?? 'corrupt';
        // A worker that ran out of memory is not trusted with another request.
        finish(
          new ExtractError(failure, reply.message ?? 'it could not be read'),
          undefined,
          failure !== 'memory',
        );
      }
    };
    const onError = (error: Error & { code?: string }) => {
      finish(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ExtractError(
              'memory',
              `${words.doing} needed more than the ${heapMb} MiB allowed; ${words.memory}`,
            )
          : new ExtractError('corrupt', `it could not be read (${error.message})`),
      );
    };
    const onExit = (code: number) =>
      finish(new ExtractError('corrupt', `the reader stopped (exit code ${code}) before answering`));
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    const message: WorkerMessage = { id, request };
    worker.postMessage(message, transfer);
  });
}

const DOCUMENT_WORDS: RunWords = {
  doing: 'reading it',
  timeout: 'ask for fewer pages or rows',
  memory: 'ask for fewer pages or rows, or a smaller file',
};

/**
 * Turns `bytes` of a `kind` document into text parts (or a scaled image) within the budgets.
 * A PDF is read by a worker that outlives the call and keeps the parsed document (at most 4, 64
 * MiB of input: parsed-cache.ts) for a continuation on the same bytes; every other family, and a
 * PDF while that worker is busy, by a worker of its own, ended after the call.
 * Errors: ExtractError — 'too-large' (input over maxInputBytes, zip over maxInflatedBytes, image
 * over maxImagePixels), 'encrypted', 'corrupt', 'unsupported', 'timeout', 'memory' (the worker's
 * heap ceiling was reached). The message says what to do where it can.
 */
export async function extractDocument(
  bytes: Uint8Array,
  kind: DocumentKind,
  options: ExtractOptions = {},
): Promise<ExtractedDocument> {
  const maxInput = options.maxInputBytes ?? DOCUMENT_DEFAULTS.maxInputBytes;
  if (bytes.length > maxInput) {
    throw new ExtractError(
      'too-large',
      `it is ${MiB(bytes.length)}, over the ${MiB(maxInput)} limit for reading documents`,
    );
  }
  options.signal?.throwIfAborted();
  const lane: Lane | undefined = kind === 'pdf' ? 'pdf' : undefined;
  const copy = new Uint8Array(bytes);
  const request: ExtractRequest = {
    kind,
    bytes: copy,
    start: options.start ?? { part: 1, offset: 0 },
    ...(options.lastPart ? { lastPart: options.lastPart } : {}),
    limits: { ...DOCUMENT_DEFAULTS.limits, ...options.limits },
    maxInflatedBytes: options.maxInflatedBytes ?? DOCUMENT_DEFAULTS.maxInflatedBytes,
    maxImagePixels: options.maxImagePixels ?? DOCUMENT_DEFAULTS.maxImagePixels,
  };
  const reply = await runInWorker(request, [copy.buffer], {
    ...(lane ? { lane } : {}),
    heapMb: options.maxHeapMb ?? DOCUMENT_DEFAULTS.maxHeapMb,
    timeoutMs: options.timeoutMs ?? DOCUMENT_DEFAULTS.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    words: DOCUMENT_WORDS,
  });
  if (!reply.document) throw new ExtractError('corrupt', 'it could not be read');
  return reply.document;
}

/** Defaults of {@link convertHtml}'s options. */
export const HTML_DEFAULTS = Object.freeze({
  /**
   * The worker's old-generation heap ceiling, MiB: converting 2 MiB of article markup peaked at a
   * 194 MiB process (RSS, Node's own included), so 512 leaves ordinary pages room and bounds a hostile one.
   */
  maxHeapMb: 512,
  /** 60 s: a 2 MiB page of plain article markup took 27 s at load 35 on 2 cores. */
  timeoutMs: 60_000,
});

/**
 * A fetched page's readable article as Markdown (net/article.ts `htmlToArticle`), made in the
 * long-lived 'html' worker (one of its own while that one is busy), so that a hostile page costs
 * that worker's time and heap, never the server's thread: the server answers other calls meanwhile.
 * No page is converted inline, however small: the cost is not bounded by size (8 KiB of unclosed
 * nested <div>s took 2.1 s, 32 KiB 16 s, at load 15 on 2 cores), and the warm worker costs an
 * ordinary page little (bench/src/fetch.ts). `url` resolves the page's relative links. Errors: ExtractError 'timeout' (past `timeoutMs`, the
 * worker is ended; the message names the limit), 'memory' (past `maxHeapMb`), the caller's abort
 * reason when `signal` aborts.
 */
export async function convertHtml(
  html: string,
  url: string,
  options: { timeoutMs?: number; maxHeapMb?: number; signal?: AbortSignal } = {},
): Promise<ConvertedArticle> {
  options.signal?.throwIfAborted();
  const reply = await runInWorker({ kind: 'html', html, url }, [], {
    lane: 'html',
    heapMb: options.maxHeapMb ?? HTML_DEFAULTS.maxHeapMb,
    timeoutMs: options.timeoutMs ?? HTML_DEFAULTS.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    words: {
      doing: 'converting the page to Markdown',
      timeout: 'the page is too large or too complex to read',
      memory: 'the page is too large or too complex to read',
    },
  });
  if (!reply.article) throw new ExtractError('corrupt', 'the page could not be converted');
  return reply.article;
}

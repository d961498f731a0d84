/**
 * Runs one extraction in a worker_thread: its own heap with a ceiling (resourceLimits), a wall-clock
 * timeout after which the worker is terminated, and the caller's abort signal. A hostile file can
 * exhaust only the worker: the server gets an ExtractError naming why, never a crash or a hang.
 * PDFs go to one long-lived worker that keeps what it parsed (a cursor continuation of a long PDF
 * does not parse it again); it is ended on any timeout, abort or crash and after 2 idle minutes.
 */
import { Worker } from 'node:worker_threads';
import { ExtractError } from './errors.js';
import type {
  DocumentKind,
  DocumentPosition,
  ExtractedDocument,
  ExtractLimits,
  ExtractRequest,
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

/** Families whose parse a long-lived worker keeps for the next request (parsed-cache.ts). */
const CACHED_KINDS: ReadonlySet<DocumentKind> = new Set(['pdf']);
/** A long-lived worker idle this long is ended (its parsed documents with it): 2 minutes. */
export const WARM_WORKER_IDLE_MS = 120_000;

/** The one long-lived worker: it serves one request at a time; a second meanwhile gets its own. */
interface Warm {
  worker: Worker;
  heapMb: number;
  busy: boolean;
  idle?: NodeJS.Timeout;
}
let warm: Warm | undefined;
let nextId = 1;

function startWorker(heapMb: number): Worker {
  const worker = new Worker(workerUrl, {
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 8 },
    stdout: true,
    stderr: true,
    env: {},
  });
  worker.stdout.resume();
  worker.stderr.resume();
  // Errors are answered by the request in flight; one after it (or while idle) must not throw.
  worker.on('error', () => {});
  return worker;
}

function endWarm(lease: Warm): void {
  if (warm === lease) warm = undefined;
  clearTimeout(lease.idle);
  void lease.worker.terminate();
}

/**
 * The long-lived worker for a `kind` extraction with heap ceiling `heapMb`, marked busy; undefined
 * when the kind is not cached or the worker is busy (the caller starts a worker of its own).
 */
function leaseWarm(kind: DocumentKind, heapMb: number): Warm | undefined {
  if (!CACHED_KINDS.has(kind)) return undefined;
  if (warm?.busy) return undefined;
  if (warm && warm.heapMb !== heapMb) endWarm(warm);
  if (!warm) {
    const lease: Warm = { worker: startWorker(heapMb), heapMb, busy: false };
    lease.worker.once('exit', () => {
      if (warm === lease) warm = undefined;
      clearTimeout(lease.idle);
    });
    warm = lease;
  }
  warm.busy = true;
  clearTimeout(warm.idle);
  warm.worker.ref();
  return warm;
}

/** Puts the long-lived worker back: idle, not keeping the process alive, ended after {@link WARM_WORKER_IDLE_MS}. */
function releaseWarm(lease: Warm): void {
  lease.busy = false;
  lease.worker.unref();
  lease.idle = setTimeout(() => endWarm(lease), WARM_WORKER_IDLE_MS);
  lease.idle.unref();
}

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
  const timeoutMs = options.timeoutMs ?? DOCUMENT_DEFAULTS.timeoutMs;
  const heapMb = options.maxHeapMb ?? DOCUMENT_DEFAULTS.maxHeapMb;
  const lease = leaseWarm(kind, heapMb);
  const worker = lease?.worker ?? startWorker(heapMb);
  const copy = new Uint8Array(bytes);
  const id = nextId++;
  const request: ExtractRequest = {
    kind,
    bytes: copy,
    start: options.start ?? { part: 1, offset: 0 },
    ...(options.lastPart ? { lastPart: options.lastPart } : {}),
    limits: { ...DOCUMENT_DEFAULTS.limits, ...options.limits },
    maxInflatedBytes: options.maxInflatedBytes ?? DOCUMENT_DEFAULTS.maxInflatedBytes,
    maxImagePixels: options.maxImagePixels ?? DOCUMENT_DEFAULTS.maxImagePixels,
    ...(lease ? { cache: true } : {}),
  };
  return new Promise<ExtractedDocument>((resolve, reject) => {
    let settled = false;
    /** `healthy`: the worker answered and may serve again (a long-lived one is kept). */
    const finish = (error: Error | undefined, document?: ExtractedDocument, healthy = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (lease && healthy) releaseWarm(lease);
      else if (lease) endWarm(lease);
      else void worker.terminate();
      if (error) reject(error);
      else resolve(document as ExtractedDocument);
    };
    const timer = setTimeout(
      () =>
        finish(
          new ExtractError(
            'timeout',
            `reading it took longer than ${timeoutMs / 1000} s and was stopped; ask for fewer pages or rows`,
          ),
        ),
      timeoutMs,
    );
    const onAbort = () =>
      finish(
        options.signal?.reason instanceof Error
          ? options.signal.reason
          : new ExtractError('timeout', 'the request was cancelled'),
      );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const onMessage = (reply: WorkerReply) => {
      if (reply.id !== id) return;
      if (reply.ok && reply.document) finish(undefined, reply.document, true);
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
              `reading it needed more than the ${heapMb} MiB allowed; ask for fewer pages or rows, or a smaller file`,
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
    worker.postMessage(message, [copy.buffer]);
  });
}

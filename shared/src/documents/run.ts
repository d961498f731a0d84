/**
 * Runs one extraction in a worker_thread: its own heap with a ceiling (resourceLimits), a wall-clock
 * timeout after which the worker is terminated, and the caller's abort signal. A hostile file can
 * exhaust only the worker: the server gets an ExtractError naming why, never a crash or a hang.
 */
import { Worker } from 'node:worker_threads';
import { ExtractError } from './errors.js';
import type {
  DocumentKind,
  DocumentPosition,
  ExtractedDocument,
  ExtractLimits,
  ExtractRequest,
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
 * Turns `bytes` of a `kind` document into text parts (or a scaled image) within the budgets.
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
  const timeoutMs = options.timeoutMs ?? DOCUMENT_DEFAULTS.timeoutMs;
  const heapMb = options.maxHeapMb ?? DOCUMENT_DEFAULTS.maxHeapMb;
  const worker = new Worker(workerUrl, {
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 8 },
    stdout: true,
    stderr: true,
    env: {},
  });
  worker.stdout.resume();
  worker.stderr.resume();
  return new Promise<ExtractedDocument>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, document?: ExtractedDocument) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
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
    worker.once('message', (reply: WorkerReply) => {
      if (reply.ok && reply.document) finish(undefined, reply.document);
      else finish(new ExtractError(reply.failure ?? 'corrupt', reply.message ?? 'it could not be read'));
    });
    worker.once('error', (error: Error & { code?: string }) => {
      finish(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ExtractError(
              'memory',
              `reading it needed more than the ${heapMb} MiB allowed; ask for fewer pages or rows, or a smaller file`,
            )
          : new ExtractError('corrupt', `it could not be read (${error.message})`),
      );
    });
    worker.once('exit', (code) =>
      finish(new ExtractError('corrupt', `the reader stopped (exit code ${code}) before answering`)),
    );
    worker.postMessage(request, [copy.buffer]);
  });
}

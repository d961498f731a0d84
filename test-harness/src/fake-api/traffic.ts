// Recorded traffic of a test run: every exchange a vendor fake answered, appended as one JSON line
// to a file of its own in the run's traffic directory, so that one check after the whole suite
// (vitest runs test files in separate workers) can read everything every test file sent.
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

/** Environment variable naming the directory recorded traffic goes to; recording is off when unset. */
export const TRAFFIC_DIR_ENV = 'REFMCP_FAKE_TRAFFIC_DIR';

/** One recorded exchange: the request's route and the reply sent (one JSON line on disk). */
export interface Exchange {
  /** Which fake answered (its `vendor` option, e.g. "github"): the spec source that checks it. */
  vendor: string;
  method: string;
  /** Toolkit pattern of the route that answered, e.g. "/repos/:owner/:repo"; absent when none matched. */
  route?: string;
  /** The request path relative to the prefix, still percent-encoded, with "?query" when sent. */
  target: string;
  status: number;
  headers: Record<string, string>;
  /** JSON body as sent; absent for no body. */
  body?: unknown;
  /** A raw (non-JSON) body, as text; absent for none. */
  raw?: string;
  /** True when an injected fault answered instead of the route (a test's own canned reply). */
  fault?: boolean;
}

/**
 * Appends `exchange` to this process's (and thread's) file in `$REFMCP_FAKE_TRAFFIC_DIR`; does
 * nothing when the variable is unset. Synchronous, so nothing is lost when a worker exits.
 */
export function recordExchange(exchange: Exchange, dir = process.env[TRAFFIC_DIR_ENV]): void {
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, `${process.pid}-${threadId}.jsonl`), `${JSON.stringify(exchange)}\n`);
}

/** Every exchange recorded in `dir` (all files, arrival order within each file). */
export function readTraffic(dir: string): Exchange[] {
  const files = readdirSync(dir, { withFileTypes: true }).filter(
    (f) => f.isFile() && f.name.endsWith('.jsonl'),
  );
  return files.flatMap((f) =>
    readFileSync(join(dir, f.name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Exchange),
  );
}

/** A traffic directory that recording points at until {@link TrafficRecording.stop}. */
export interface TrafficRecording {
  dir: string;
  /** Everything recorded in `dir` so far. */
  read(): Exchange[];
  /** Points recording back where it was (or off) and removes `dir`. */
  stop(): void;
}

/**
 * Points recording at a fresh temporary directory (for a test file that checks its own
 * traffic); recordings nest, each `stop()` restoring the one before.
 */
export function recordTraffic(prefix = 'refmcp-fake-traffic-'): TrafficRecording {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const before = process.env[TRAFFIC_DIR_ENV];
  process.env[TRAFFIC_DIR_ENV] = dir;
  return {
    dir,
    read: () => readTraffic(dir),
    stop() {
      if (before === undefined) delete process.env[TRAFFIC_DIR_ENV];
      else process.env[TRAFFIC_DIR_ENV] = before;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

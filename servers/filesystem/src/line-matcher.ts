/**
 * Finding the lines of a text that match a search pattern.
 *
 * Literal patterns run on the main thread as an escaped regular expression (no quantifiers, so no
 * backtracking blow-up). Model-written regular expressions never run on the main thread: a
 * catastrophic pattern (`(a+)+$`, backreferences) can backtrack for minutes and a JS regex cannot be
 * interrupted, so they run in a worker thread that is terminated when the time budget runs out.
 * Lines longer than {@link MAX_REGEX_LINE} characters are matched only in their first part; a hit on such a line
 * says so (`lineCut`), because anchors and lookaheads saw the cut, not the line's real end.
 */
import type { Worker } from 'node:worker_threads';

/** Characters of one line a regular expression looks at (the line-length cap). */
export const MAX_REGEX_LINE = 16 * 1024;

export interface LineHit {
  /** 0-based line index. */
  index: number;
  /** 0-based UTF-16 offset of the match in the line. */
  column: number;
  /** Length of the match in UTF-16 code units. */
  length: number;
  /**
   * The line is longer than {@link MAX_REGEX_LINE}: only its first part was matched, so `$`, `\b` and
   * lookaheads saw a cut line and the match may not hold on the whole line.
   */
  lineCut?: true;
}

export interface MatchOutcome {
  hits: LineHit[];
  /** The time budget ran out while matching (the matcher is unusable afterwards). */
  timedOut: boolean;
}

export interface LineMatcher {
  /** Hits in `lines`, at most `limit` (one per line: its first match), before `deadline` (performance.now()). */
  match(lines: readonly string[], limit: number, deadline: number): Promise<MatchOutcome>;
  /** Releases the worker, if any. */
  close(): Promise<void>;
}

/** Escapes `text` for use as a literal inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * Compiles the model's pattern; throws a SyntaxError whose message names the problem.
 * Flags: `i` unless caseSensitive; no `g`/`y` (one match per line is what is reported).
 */
export function compilePattern(pattern: string, opts: { regex: boolean; caseSensitive: boolean }): RegExp {
  const source = opts.regex ? pattern : escapeRegExp(pattern);
  return new RegExp(source, opts.caseSensitive ? '' : 'i');
}

function matchAll(re: RegExp, lines: readonly string[], limit: number): LineHit[] {
  const hits: LineHit[] = [];
  for (let i = 0; i < lines.length && hits.length < limit; i++) {
    const m = re.exec(lines[i] as string);
    if (m) hits.push({ index: i, column: m.index, length: m[0].length });
  }
  return hits;
}

/** A literal pattern: safe on the main thread. */
export function literalMatcher(re: RegExp): LineMatcher {
  return {
    match: async (lines, limit) => ({ hits: matchAll(re, lines, limit), timedOut: false }),
    close: async () => {},
  };
}

// The worker: compiles the pattern once, then answers {id, lines, limit} with flat [index, column, length] triples.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.source, workerData.flags);
const cap = workerData.maxLine;
parentPort.on('message', ({ id, lines, limit }) => {
  const hits = [];
  for (let i = 0; i < lines.length && hits.length < limit * 3; i++) {
    let line = lines[i];
    if (line.length > cap) line = line.slice(0, cap);
    const m = re.exec(line);
    if (m) hits.push(i, m.index, m[0].length);
  }
  parentPort.postMessage({ id, hits });
});
`;

/**
 * A model-written regular expression, evaluated in a worker thread. The worker starts lazily on
 * the first batch, is reused for the whole search, and is terminated on close or when a batch
 * outlives the deadline (then every later call reports `timedOut`).
 */
export function workerMatcher(re: RegExp): LineMatcher {
  let worker: Worker | undefined;
  let dead = false;
  let nextId = 0;
  const start = () => {
    // Loaded on first use: node:worker_threads costs several ms at startup and only regex searches need it.
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { source: re.source, flags: re.flags, maxLine: MAX_REGEX_LINE },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    w.unref();
    return w;
  };
  const kill = async () => {
    dead = true;
    const w = worker;
    worker = undefined;
    if (w) await w.terminate().catch(() => {});
  };
  return {
    async match(lines, limit, deadline) {
      if (dead) return { hits: [], timedOut: true };
      if (lines.length === 0) return { hits: [], timedOut: false };
      worker ??= start();
      const w = worker;
      const id = nextId++;
      const outcome = await new Promise<MatchOutcome | 'timeout'>((resolve, reject) => {
        const timer = setTimeout(() => finish('timeout'), Math.max(0, deadline - performance.now()));
        const onMessage = (msg: { id: number; hits: number[] }) => {
          if (msg.id !== id) return;
          const hits: LineHit[] = [];
          for (let i = 0; i < msg.hits.length; i += 3) {
            const index = msg.hits[i] as number;
            hits.push({
              index,
              column: msg.hits[i + 1] as number,
              length: msg.hits[i + 2] as number,
              ...((lines[index]?.length ?? 0) > MAX_REGEX_LINE ? { lineCut: true as const } : {}),
            });
          }
          finish({ hits, timedOut: false });
        };
        const onError = (error: Error) => {
          cleanup();
          reject(error);
        };
        const onExit = () => finish('timeout');
        const cleanup = () => {
          clearTimeout(timer);
          w.off('message', onMessage);
          w.off('error', onError);
          w.off('exit', onExit);
        };
        const finish = (value: MatchOutcome | 'timeout') => {
          cleanup();
          resolve(value);
        };
        w.on('message', onMessage);
        w.on('error', onError);
        w.on('exit', onExit);
        w.postMessage({ id, lines, limit });
      });
      if (outcome === 'timeout') {
        await kill();
        return { hits: [], timedOut: true };
      }
      return outcome;
    },
    close: kill,
  };
}

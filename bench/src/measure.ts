/**
 * Timing and memory primitives: a monotonic clock, order statistics, pipelined call loops and the
 * peak resident set size of a process.
 */
import { readFile } from 'node:fs/promises';

/** Milliseconds on a monotonic clock. */
export const now = (): number => performance.now();

/** The q-quantile (0..1) of `values` by nearest rank; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** Peak resident set size (VmHWM) of process `pid` in bytes, or undefined if it cannot be read. */
export async function peakRssBytes(pid: number | undefined): Promise<number | undefined> {
  if (!pid) return undefined;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export interface PipelineResult {
  /** Wall time of the whole run in ms. */
  elapsedMs: number;
  /** Per-call latency (request sent → answer received) in ms, successful calls only. */
  latenciesMs: number[];
  /** Calls that failed, and the first failure's message. */
  failures: number;
  firstFailure?: string;
  /** CPU time this (client) process used during the run, in ms. */
  clientCpuMs: number;
}

/**
 * Runs `call(i)` for i in [0, n) keeping `inFlight` calls outstanding. `call` resolves with an
 * error message when the call failed, or undefined when it succeeded.
 */
export async function pipelined(
  n: number,
  inFlight: number,
  call: (i: number) => Promise<string | undefined>,
): Promise<PipelineResult> {
  const latenciesMs: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  let next = 0;
  const cpu = process.cpuUsage();
  const started = now();
  const lane = async () => {
    while (next < n) {
      const i = next++;
      const t0 = now();
      let failure: string | undefined;
      try {
        failure = await call(i);
      } catch (error) {
        failure = errorText(error);
      }
      if (failure === undefined) latenciesMs.push(now() - t0);
      else {
        failures++;
        firstFailure ??= failure;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, n) }, lane));
  const elapsedMs = now() - started;
  const used = process.cpuUsage(cpu);
  return { elapsedMs, latenciesMs, failures, firstFailure, clientCpuMs: (used.user + used.system) / 1000 };
}

/** Pipelined throughput: calls per second over the timed calls, latency quantiles in ms. */
export interface Throughput {
  callsPerSec: number;
  p50: number;
  p99: number;
}

/**
 * `sizes.warmupCalls` untimed calls, then `sizes.calls` timed ones, `sizes.inFlight` at a time
 * (`call(i)` resolves with a failure text or undefined). `aroundTimed.before`/`after` run just
 * before and after the timed calls (e.g. to read the server's CPU time). Errors: when any timed
 * call fails, naming the first failure.
 */
export async function throughput(
  call: (i: number) => Promise<string | undefined>,
  sizes: { calls: number; inFlight: number; warmupCalls: number },
  aroundTimed: { before?: () => Promise<void>; after?: () => Promise<void> } = {},
): Promise<Throughput> {
  await pipelined(sizes.warmupCalls, sizes.inFlight, call);
  await aroundTimed.before?.();
  const timed = await pipelined(sizes.calls, sizes.inFlight, call);
  await aroundTimed.after?.();
  if (timed.failures)
    throw new Error(`${timed.failures}/${sizes.calls} failed; first: ${timed.firstFailure}`);
  return {
    callsPerSec: sizes.calls / (timed.elapsedMs / 1000),
    p50: quantile(timed.latenciesMs, 0.5),
    p99: quantile(timed.latenciesMs, 0.99),
  };
}

/** A one-line description of anything thrown. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  return String(error);
}

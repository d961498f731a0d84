/**
 * What every workload shares: its context, the alternation of the two servers over repetitions,
 * and helpers to turn tool results into figures.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Sizes } from '../config.js';
import { errorText, median } from '../measure.js';
import type { Answer, Cell, Row } from '../report.js';
import { resultText, type ServerUnderTest, type Session, SIDES, type Side } from '../servers.js';

export interface Context {
  servers: Record<Side, ServerUnderTest>;
  sizes: Sizes;
  /** bench/.bench-data: the cache of generated workload data. */
  dataRoot: string;
  /** Progress, to stderr. */
  log: (message: string) => void;
  /** `--offline`: workloads that need the network skip themselves with a note. */
  offline?: boolean;
}

export interface WorkloadResult {
  rows: Row[];
  answers?: Answer[];
  notes?: string[];
}

export interface SideRuns<T> {
  results: T[];
  /** The first failure; the side's remaining repetitions are skipped after it. */
  error?: string;
}

/**
 * Runs `fn` for `reps` repetitions, alternating ours, official, ours, official, …. A server that
 * is missing or fails is recorded (not thrown) and skipped for the remaining repetitions.
 */
export async function alternate<T>(
  ctx: Context,
  reps: number,
  what: string,
  fn: (server: ServerUnderTest, rep: number) => Promise<T>,
): Promise<Record<Side, SideRuns<T>>> {
  const runs: Record<Side, SideRuns<T>> = { ours: { results: [] }, official: { results: [] } };
  for (const side of SIDES) {
    const missing = ctx.servers[side].missing;
    if (missing) runs[side].error = missing;
  }
  for (let rep = 0; rep < reps; rep++) {
    for (const side of SIDES) {
      if (runs[side].error) continue;
      ctx.log(`${what}: ${side} ${rep + 1}/${reps}`);
      try {
        runs[side].results.push(await fn(ctx.servers[side], rep));
      } catch (error) {
        runs[side].error = errorText(error);
        ctx.log(`${what}: ${side} failed: ${runs[side].error}`);
      }
    }
  }
  return runs;
}

/** The median of `pick` over a side's results, or its error. */
export function cellOf<T>(runs: SideRuns<T>, pick: (result: T) => number | undefined): Cell {
  if (runs.error && runs.results.length === 0) return { error: runs.error };
  const values = runs.results.map(pick).filter((v): v is number => v !== undefined && Number.isFinite(v));
  if (values.length === 0) return runs.error ? { error: runs.error } : {};
  return { value: median(values) };
}

/** `name {args}`: the exact call, for error messages. */
export function describeCall(name: string, args: Record<string, unknown>): string {
  return `${name} ${JSON.stringify(args)}`;
}

/** Calls a tool and throws (naming the exact call) if the server answers with isError. */
export async function callOk(
  session: Session,
  name: string,
  args: Record<string, unknown>,
  timeoutMs: number,
): Promise<CallToolResult> {
  let result: CallToolResult;
  try {
    result = await session.call(name, args, timeoutMs);
  } catch (error) {
    throw new Error(`${describeCall(name, args)} → ${errorText(error)}`);
  }
  if (result.isError)
    throw new Error(`${describeCall(name, args)} → isError: ${preview(resultText(result), 300)}`);
  return result;
}

/**
 * A tools/call over the raw path, for timed calls: the SDK client would also compile the tool's outputSchema
 * on its first call and validate every answer against it (~60–250 ms of the bench's own CPU on a first call),
 * charged to whichever server declares an outputSchema. Rejects on a JSON-RPC error or no answer in time;
 * an isError result is returned.
 */
export async function rawResult(
  session: Session,
  name: string,
  args: Record<string, unknown>,
  timeoutMs: number,
): Promise<CallToolResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const response = await Promise.race([session.rawResponse(name, args), timeout]);
    if (response.error) throw new Error(`JSON-RPC error ${response.error.code}: ${response.error.message}`);
    return response.result as CallToolResult;
  } finally {
    clearTimeout(timer);
  }
}

/** {@link rawResult} that throws (naming the exact call) unless the call succeeded: callOk for timed calls. */
export async function rawCallOk(
  session: Session,
  name: string,
  args: Record<string, unknown>,
  timeoutMs: number,
): Promise<CallToolResult> {
  let result: CallToolResult;
  try {
    result = await rawResult(session, name, args, timeoutMs);
  } catch (error) {
    throw new Error(`${describeCall(name, args)} → ${errorText(error)}`);
  }
  if (result.isError)
    throw new Error(`${describeCall(name, args)} → isError: ${preview(resultText(result), 300)}`);
  return result;
}

/** How the result says more exists (cursor, truncation marker), or undefined when it does not. */
export function moreExists(result: CallToolResult): string | undefined {
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  if (typeof structured?.nextCursor === 'string') return 'nextCursor';
  if (structured?.truncated === true) return 'truncated: true';
  const text = resultText(result);
  if (/nextCursor/.test(text)) return 'nextCursor (in text)';
  if (/\[truncated:/.test(text)) return '[truncated: …] marker';
  return undefined;
}

/** The first `n` characters on one line (newlines shown as ⏎). */
export function preview(text: string, n = 100): string {
  const cut = text.length > n ? `${text.slice(0, n)}…` : text;
  return cut.replace(/\r?\n/g, '⏎');
}

/** Bytes of the result's text content (what a model would read). */
export function textBytes(result: CallToolResult): number {
  return Buffer.byteLength(resultText(result), 'utf8');
}

/** "ours: …; official: …" for a note, over each side's results. */
export function perSide<T>(runs: Record<Side, SideRuns<T>>, show: (results: T[]) => string): string {
  return SIDES.map((side) => `${side} ${runs[side].results.length ? show(runs[side].results) : '—'}`).join(
    '; ',
  );
}

export const MiB = 1024 * 1024;

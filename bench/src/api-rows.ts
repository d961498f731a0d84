/**
 * Rows of an API suite (GitHub, GitLab, Slack), measured alike for both servers: cold start to
 * tools/list answered (one untimed start each, then `sizes.coldStarts`, alternated), one tool's
 * pipelined calls/s against the suite's fake, and the size of one answer against a 0.3× goal.
 */
import { type ApiSession, callsPerSecond, type OutputSize, outputSize } from './api-servers.js';
import type { Throughput } from './measure.js';
import { type Answer, type Goal, type Row, row } from './report.js';
import type { ServerUnderTest, Side } from './servers.js';
import { alternate, type Context, cellOf, perSide, preview, type SideRuns } from './workloads/common.js';

/** A session on `server`; `forCalls` false for cold starts (an official side starts without its fetch-redirect preload). */
export type SessionFor = (server: ServerUnderTest, forCalls: boolean) => Promise<ApiSession>;

/** Cold starts (spawn → tools/list answered, ms): one warm-up each, then `sizes.coldStarts` alternated runs. */
export async function coldStartRuns(
  ctx: Context,
  name: string,
  session: SessionFor,
): Promise<Record<Side, SideRuns<number>>> {
  const cold = async (server: ServerUnderTest) => {
    const s = await session(server, false);
    await s.close();
    return s.readyMs;
  };
  await alternate(ctx, 1, `${name} cold start warm-up`, cold);
  return alternate(ctx, ctx.sizes.coldStarts, `${name} cold start`, cold);
}

/** The report row of {@link coldStartRuns}. */
export function coldStartRow(
  id: string,
  name: string,
  ctx: Context,
  runs: Record<Side, SideRuns<number>>,
  goal?: Goal,
): Row {
  return row({
    id,
    name: `${name} cold start → tools/list answered (${ctx.sizes.coldStarts} starts)`,
    unit: 'ms',
    better: 'lower',
    ours: cellOf(runs.ours, (ms) => ms),
    official: cellOf(runs.official, (ms) => ms),
    ...(goal ? { goal } : {}),
  });
}

/** "name cold start: ours 287–622 ms; official 149–619 ms". */
export function coldStartNote(name: string, runs: Record<Side, SideRuns<number>>): string {
  return `${name} cold start: ${perSide(runs, (ms) => `${Math.round(Math.min(...ms))}–${Math.round(Math.max(...ms))} ms`)}`;
}

/** One call of `tool` with `args` on each side (for calls, so with any preload): its {@link OutputSize}. Errors: the call failing. */
export function outputSizeRuns(
  ctx: Context,
  name: string,
  session: SessionFor,
  tool: string,
  args: Record<string, unknown>,
): Promise<Record<Side, SideRuns<OutputSize>>> {
  return alternate(ctx, 1, `${name} ${tool} output size`, async (server) => {
    const s = await session(server, true);
    try {
      return await outputSize(s, tool, args);
    } finally {
      await s.close();
    }
  });
}

/** The first 100 characters each side answered `call` with (the report's Answers section). */
export function firstAnswer(label: string, call: string, runs: Record<Side, SideRuns<OutputSize>>): Answer {
  return {
    name: `${label}, first 100 characters`,
    call,
    ours: preview(runs.ours.results[0]?.text ?? '', 100),
    official: preview(runs.official.results[0]?.text ?? runs.official.error ?? '', 100),
  };
}

/**
 * The output-size row with the 0.3× goal (issues 15–18): our text against the official server's,
 * and `kept` — whether every field a model needs (`keptText` names them) is still in ours.
 */
export function textSizeRow(
  id: string,
  name: string,
  runs: Record<Side, SideRuns<OutputSize>>,
  keptText: string,
  kept: boolean | undefined,
): Row {
  return row({
    id,
    name,
    unit: 'bytes',
    better: 'lower',
    ours: cellOf(runs.ours, (r) => r.bytes),
    official: cellOf(runs.official, (r) => r.bytes),
    goal: {
      ratioAtMost: 0.3,
      text: '≤ 0.3×, nothing needed dropped',
      alsoRequired: { text: keptText, met: kept },
    },
  });
}

export interface StartAndCallOptions {
  /** The suite's name in row names and progress ("github"). */
  name: string;
  /** Row id prefix: `${prefix}1` cold start, `${prefix}2` calls/s. */
  prefix: string;
  session: SessionFor;
  /** The tool timed for calls/s, and its arguments. */
  tool: string;
  args: Record<string, unknown>;
  /** Goal of the cold-start row, ours ÷ official, if any. */
  coldGoal?: Goal;
  /** Appended to the latency note. */
  latencyNote?: string;
}

/** Rows `${prefix}1` and `${prefix}2` and their notes. Errors: none; a failing side is a cell error. */
export async function startAndCallRows(
  ctx: Context,
  o: StartAndCallOptions,
): Promise<{ rows: Row[]; notes: string[] }> {
  const { sizes } = ctx;
  const coldRuns = await coldStartRuns(ctx, o.name, o.session);
  const calls = await alternate(
    ctx,
    sizes.readReps,
    `${o.name} ${o.tool} ×${sizes.calls}`,
    async (server): Promise<Throughput> => {
      const s = await o.session(server, true);
      try {
        return await callsPerSecond(s, o.tool, o.args, sizes);
      } finally {
        await s.close();
      }
    },
  );
  return {
    rows: [
      coldStartRow(`${o.prefix}1`, o.name, ctx, coldRuns, o.coldGoal),
      row({
        id: `${o.prefix}2`,
        name: `${o.name} ${o.tool} calls/s vs local fake (${sizes.inFlight} in flight)`,
        unit: 'calls/s',
        better: 'higher',
        ours: cellOf(calls.ours, (r) => r.callsPerSec),
        official: cellOf(calls.official, (r) => r.callsPerSec),
      }),
    ],
    notes: [
      coldStartNote(o.name, coldRuns),
      `${o.name} ${o.tool} latency p50/p99: ${perSide(calls, (rs) => rs.map((r) => `${r.p50.toFixed(1)}/${r.p99.toFixed(1)} ms`).join(', '))}${o.latencyNote ?? ''}`,
    ],
  };
}

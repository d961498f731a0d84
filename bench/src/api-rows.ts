/**
 * The first two rows of an API suite (GitHub, GitLab), measured alike for both servers: cold start
 * to tools/list answered (one untimed start each, then `sizes.coldStarts`, alternated), and one
 * tool's pipelined calls/s against the suite's fake, with their notes.
 */
import { type ApiSession, callsPerSecond } from './api-servers.js';
import type { Throughput } from './measure.js';
import { type Goal, type Row, row } from './report.js';
import type { ServerUnderTest } from './servers.js';
import { alternate, type Context, cellOf, perSide } from './workloads/common.js';

export interface StartAndCallOptions {
  /** The suite's name in row names and progress ("github"). */
  name: string;
  /** Row id prefix: `${prefix}1` cold start, `${prefix}2` calls/s. */
  prefix: string;
  /** A session on `server`; `forCalls` false for cold starts (GitHub's official side starts without its preload). */
  session: (server: ServerUnderTest, forCalls: boolean) => Promise<ApiSession>;
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
  const cold = async (server: ServerUnderTest) => {
    const s = await o.session(server, false);
    await s.close();
    return s.readyMs;
  };
  await alternate(ctx, 1, `${o.name} cold start warm-up`, cold);
  const coldRuns = await alternate(ctx, sizes.coldStarts, `${o.name} cold start`, cold);
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
  const range = (ms: number[]) => `${Math.round(Math.min(...ms))}–${Math.round(Math.max(...ms))} ms`;
  return {
    rows: [
      row({
        id: `${o.prefix}1`,
        name: `${o.name} cold start → tools/list answered (${sizes.coldStarts} starts)`,
        unit: 'ms',
        better: 'lower',
        ours: cellOf(coldRuns.ours, (ms) => ms),
        official: cellOf(coldRuns.official, (ms) => ms),
        ...(o.coldGoal ? { goal: o.coldGoal } : {}),
      }),
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
      `${o.name} cold start: ${perSide(coldRuns, range)}`,
      `${o.name} ${o.tool} latency p50/p99: ${perSide(calls, (rs) => rs.map((r) => `${r.p50.toFixed(1)}/${r.p99.toFixed(1)} ms`).join(', '))}${o.latencyNote ?? ''}`,
    ],
  };
}

/**
 * Metrics 1 and 3: small-file read_text_file throughput, pipelined over one connection (calls/s,
 * p50/p99 latency), and the server's peak RSS on that workload.
 */
import { join } from 'node:path';
import { smallFiles, smallName } from '../data.js';
import { pipelined, quantile } from '../measure.js';
import { row } from '../report.js';
import { resultText, withSession } from '../servers.js';
import {
  alternate,
  type Context,
  callOk,
  cellOf,
  describeCall,
  perSide,
  type WorkloadResult,
} from './common.js';

interface ReadRun {
  callsPerSec: number;
  p50: number;
  p99: number;
  peakRss?: number;
  /** Client CPU time ÷ wall time during the timed calls (1 = one core busy). */
  clientCpu: number;
  /** Whether the answer to the first read contained the file's first line. */
  contentOk: boolean;
}

export async function readWorkload(ctx: Context): Promise<WorkloadResult> {
  const { sizes } = ctx;
  const dir = await smallFiles(ctx.dataRoot, sizes, ctx.log);
  const paths = Array.from({ length: sizes.smallFiles }, (_, i) => join(dir, smallName(i)));
  const timeout = sizes.callTimeoutMs;
  const what = `read_text_file ×${sizes.calls}, ${sizes.inFlight} in flight`;

  const runs = await alternate(ctx, sizes.readReps, what, (server) =>
    withSession(server, [dir], timeout, async (session): Promise<ReadRun> => {
      const first = await callOk(session, 'read_text_file', { path: paths[0] }, timeout);
      const contentOk = resultText(first).includes('s0 line 000');
      const call = async (i: number) => {
        const args = { path: paths[i % paths.length] };
        const failure = await session.rawCall('read_text_file', args);
        return failure && `${describeCall('read_text_file', args)} → ${failure}`;
      };
      await pipelined(sizes.warmupCalls, sizes.inFlight, call);
      const timed = await pipelined(sizes.calls, sizes.inFlight, call);
      if (timed.failures) {
        throw new Error(`${timed.failures}/${sizes.calls} calls failed; first: ${timed.firstFailure}`);
      }
      return {
        callsPerSec: sizes.calls / (timed.elapsedMs / 1000),
        p50: quantile(timed.latenciesMs, 0.5),
        p99: quantile(timed.latenciesMs, 0.99),
        peakRss: await session.peakRss(),
        clientCpu: timed.clientCpuMs / timed.elapsedMs,
        contentOk,
      };
    }),
  );

  const rows = [
    row({
      id: '1',
      name: `read_text_file calls/s (${sizes.smallFileBytes} B files, ${sizes.inFlight} in flight)`,
      unit: 'calls/s',
      better: 'higher',
      ours: cellOf(runs.ours, (r) => r.callsPerSec),
      official: cellOf(runs.official, (r) => r.callsPerSec),
      goal: { ratioAtLeast: 3, text: '≥ 3×' },
    }),
    row({
      id: '1',
      name: 'read_text_file latency p50',
      unit: 'ms',
      better: 'lower',
      ours: cellOf(runs.ours, (r) => r.p50),
      official: cellOf(runs.official, (r) => r.p50),
    }),
    row({
      id: '1',
      name: 'read_text_file latency p99',
      unit: 'ms',
      better: 'lower',
      ours: cellOf(runs.ours, (r) => r.p99),
      official: cellOf(runs.official, (r) => r.p99),
    }),
    row({
      id: '3',
      name: 'peak RSS on the read workload',
      unit: 'bytes',
      better: 'lower',
      ours: cellOf(runs.ours, (r) => r.peakRss),
      official: cellOf(runs.official, (r) => r.peakRss),
      goal: { ratioAtMost: 0.7, text: '≤ 0.7×' },
    }),
  ];
  const notes = [
    `read workload: ${sizes.readReps} fresh server(s) each, ${sizes.warmupCalls} warm-up + ${sizes.calls} timed calls ` +
      '(timed calls as raw JSON-RPC beside the SDK client, so client-side validation does not cap the figure); ' +
      `bench client CPU during timed calls: ${perSide(runs, (rs) => rs.map((r) => `${Math.round(r.clientCpu * 100)}%`).join('/'))} ` +
      '(near 100% means the client, not the server, limits calls/s)',
  ];
  for (const side of ['ours', 'official'] as const) {
    if (runs[side].results.some((r) => !r.contentOk)) {
      notes.push(`${side}: read_text_file {"path":"${paths[0]}"} did not return the file's first line`);
    }
  }
  return { rows, notes };
}

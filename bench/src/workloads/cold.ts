/**
 * Metric 2: cold start to first response, spawn → tools/list answered, alternating the servers.
 * One untimed start of each first, so both find node and their code in the page cache (and ours has
 * its V8 code cache: shared/src/launch), as on a host that has started the server before.
 */
import { smallFiles } from '../data.js';
import { row } from '../report.js';
import { Session } from '../servers.js';
import { alternate, type Context, cellOf, perSide, type WorkloadResult } from './common.js';

export async function coldWorkload(ctx: Context): Promise<WorkloadResult> {
  const { sizes } = ctx;
  const dir = await smallFiles(ctx.dataRoot, sizes, ctx.log);
  const start = async (server: Parameters<typeof Session.start>[0]) => {
    const session = await Session.start(server, [dir], sizes.callTimeoutMs);
    await session.close();
    return session.readyMs;
  };
  await alternate(ctx, 1, 'cold start warm-up', start);
  const runs = await alternate(ctx, sizes.coldStarts, 'cold start', start);
  const fmt = (ms: number[]) => `${Math.round(Math.min(...ms))}–${Math.round(Math.max(...ms))} ms`;
  return {
    rows: [
      row({
        id: '2',
        name: `cold start → tools/list answered (${sizes.coldStarts} starts)`,
        unit: 'ms',
        better: 'lower',
        ours: cellOf(runs.ours, (ms) => ms),
        official: cellOf(runs.official, (ms) => ms),
        goal: { ratioAtMost: 0.6, text: '≤ 0.6×' },
      }),
    ],
    notes: [`cold start range: ${perSide(runs, fmt)}`],
  };
}

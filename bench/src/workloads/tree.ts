/**
 * Metric 5: directory_tree over the big tree: time, and the size of the answer (ours must be
 * bounded; the official returns the whole tree as indented JSON).
 */
import { bigTree, warmTree } from '../data.js';
import { now } from '../measure.js';
import { row } from '../report.js';
import { resultText, withSession } from '../servers.js';
import {
  alternate,
  type Context,
  cellOf,
  MiB,
  moreExists,
  perSide,
  preview,
  rawCallOk,
  textBytes,
  type WorkloadResult,
} from './common.js';

/** "Bounded": our answer stays under this many bytes however big the tree. */
const BOUND_BYTES = 1 * MiB;

interface TreeRun {
  ms: number;
  bytes: number;
  more?: string;
  peakRss?: number;
  head: string;
}

export async function treeWorkload(ctx: Context): Promise<WorkloadResult> {
  const { sizes } = ctx;
  const tree = await bigTree(ctx.dataRoot, sizes, ctx.log);
  ctx.log(`warming the tree: ${await warmTree(tree)} entries`);
  const timeout = sizes.callTimeoutMs;
  const args = { path: tree };

  const runs = await alternate(ctx, sizes.heavyReps, 'directory_tree', (server) =>
    withSession(server, [tree], timeout, async (session): Promise<TreeRun> => {
      const t0 = now();
      const result = await rawCallOk(session, 'directory_tree', args, timeout);
      const ms = now() - t0;
      return {
        ms,
        bytes: textBytes(result),
        more: moreExists(result),
        peakRss: await session.peakRss(),
        head: preview(resultText(result)),
      };
    }),
  );

  const files = sizes.treeDirs * sizes.treeFilesPerDir + sizes.needles;
  const oursBytes = runs.ours.results[0]?.bytes;
  return {
    rows: [
      row({
        id: '5',
        name: `directory_tree over ${files.toLocaleString('en-US')} files`,
        unit: 'ms',
        better: 'lower',
        ours: cellOf(runs.ours, (r) => r.ms),
        official: cellOf(runs.official, (r) => r.ms),
        goal: { ratioAtMost: 0.1, text: '≤ 0.1× (≥ 10× faster)' },
      }),
      row({
        id: '5',
        name: 'directory_tree output (text bytes)',
        unit: 'bytes',
        better: 'lower',
        ours: cellOf(runs.ours, (r) => r.bytes),
        official: cellOf(runs.official, (r) => r.bytes),
        goal: {
          text: 'ours ≤ 1 MiB (bounded)',
          alsoRequired: {
            text: 'ours bounded',
            met: oursBytes === undefined ? undefined : oursBytes <= BOUND_BYTES,
          },
        },
      }),
    ],
    notes: [
      `directory_tree: ours says more exists: ${runs.ours.results[0] ? (runs.ours.results[0].more ?? 'no') : '—'}; ` +
        `peak RSS ${perSide(runs, (rs) => `${((rs[0]?.peakRss ?? Number.NaN) / MiB).toFixed(0)} MiB`)}`,
    ],
    answers: [
      {
        name: 'directory_tree',
        call: JSON.stringify(args),
        ours: runs.ours.results[0]?.head ?? runs.ours.error ?? '—',
        official: runs.official.results[0]?.head ?? runs.official.error ?? '—',
      },
    ],
  };
}

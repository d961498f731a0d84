/**
 * Metric 4: search_files for one name pattern over the big tree. A rare name (needle.txt, a few
 * hits: both servers must walk everything) and a broad one (f4?.txt, a tenth of all files: ours
 * paginates, so its figure is the time to the first page).
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { bigTree, warmTree } from '../data.js';
import { now } from '../measure.js';
import { row } from '../report.js';
import { resultText, withSession } from '../servers.js';
import {
  alternate,
  type Context,
  callOk,
  cellOf,
  MiB,
  moreExists,
  perSide,
  rawCallOk,
  textBytes,
  type WorkloadResult,
} from './common.js';

interface SearchRun {
  ms: number;
  hits: number;
  bytes: number;
  more?: string;
  /** Hits on the page after the first (ours, when it returned a cursor). */
  page2Hits?: number;
}

function countHits(result: CallToolResult, hit: RegExp): number {
  return resultText(result).match(hit)?.length ?? 0;
}

const PATTERNS = [
  { key: 'rare', pattern: '**/needle.txt', hit: /needle\.txt/g },
  { key: 'broad', pattern: '**/f4*.txt', hit: /f4\d\.txt/g },
] as const;

export async function searchWorkload(ctx: Context): Promise<WorkloadResult> {
  const { sizes } = ctx;
  const tree = await bigTree(ctx.dataRoot, sizes, ctx.log);
  ctx.log(`warming the tree: ${await warmTree(tree)} entries`);
  const timeout = sizes.callTimeoutMs;

  const runs = await alternate(ctx, sizes.heavyReps, 'search_files', (server) =>
    withSession(server, [tree], timeout, async (session) => {
      const out: Record<string, SearchRun> = {};
      for (const { key, pattern, hit } of PATTERNS) {
        const t0 = now();
        const result = await rawCallOk(session, 'search_files', { path: tree, pattern }, timeout);
        const ms = now() - t0;
        const more = moreExists(result);
        out[key] = { ms, hits: countHits(result, hit), bytes: textBytes(result), more };
        const cursor = (result.structuredContent as { nextCursor?: unknown } | undefined)?.nextCursor;
        if (typeof cursor === 'string') {
          // Untimed: follow the cursor once, to see that "more" is real.
          const next = await callOk(session, 'search_files', { path: tree, pattern, cursor }, timeout);
          out[key].page2Hits = countHits(next, hit);
        }
      }
      return { ...out, peakRss: await session.peakRss() } as Record<'rare' | 'broad', SearchRun> & {
        peakRss?: number;
      };
    }),
  );

  const files = sizes.treeDirs * sizes.treeFilesPerDir + sizes.needles;
  const rows = PATTERNS.map(({ key, pattern }) =>
    row({
      id: '4',
      name: `search_files "${pattern}" over ${files.toLocaleString('en-US')} files${key === 'broad' ? ' (1st page)' : ''}`,
      unit: 'ms',
      better: 'lower',
      ours: cellOf(runs.ours, (r) => r[key].ms),
      official: cellOf(runs.official, (r) => r[key].ms),
      goal: { ratioAtMost: 0.05, text: '≤ 0.05× (≥ 20× faster)' },
    }),
  );
  const notes = PATTERNS.map(
    ({ key, pattern }) =>
      `search_files "${pattern}": hits/bytes ${perSide(runs, (rs) => {
        const r = rs[0]?.[key];
        return r
          ? `${r.hits} hits, ${r.bytes.toLocaleString('en-US')} B, more exists: ${r.more ?? 'no'}` +
              (r.page2Hits === undefined ? '' : ` (next page: ${r.page2Hits} hits)`)
          : '—';
      })}`,
  );
  notes.push(
    `search_files peak RSS: ${perSide(runs, (rs) => `${((rs[0]?.peakRss ?? Number.NaN) / MiB).toFixed(0)} MiB`)}`,
  );
  return { rows, notes };
}

/**
 * The SQLite suite (`--only sqlite`). There is no maintained official SQLite MCP server on npm, so
 * the "official" column is the floor: better-sqlite3 doing the same query in-process (floor.ts);
 * the ratio ours ÷ floor is the price of MCP + JSON-RPC + the engine process.
 *   S1 point query by primary key: calls/s (ours pipelined over one connection) and p50 latency
 *   S2 `SELECT * FROM items` over 1M rows: time to the first bounded page, and peak RSS of the server
 *      with its engine processes — goal < 150 MiB
 *   S3 while a runaway statement runs: time for another call to answer — goal < 100 ms — issued
 *      50 ms after the runaway started (may include starting a read engine) and 1 s after (a warm
 *      spare is ready); and when the runaway was stopped against --statement-timeout
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { now, peakRssBytes, quantile, throughput } from '../measure.js';
import { type Cell, row } from '../report.js';
import {
  BENCH_DIR,
  reportedVersions,
  resultText,
  type ServerUnderTest,
  type Session,
  withSession,
} from '../servers.js';
import {
  type Context,
  callOk,
  describeCall,
  MiB,
  preview,
  type WorkloadResult,
} from '../workloads/common.js';
import { ITEMS, itemsDatabase } from './data.js';
import { floorPoint, floorScan } from './floor.js';

const POINT = 'SELECT * FROM items WHERE id = ?';
const SCAN = 'SELECT * FROM items';
const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
const RUNAWAY_TIMEOUT_MS = 5000;
const PAGE_ROWS = 1000;
const pointArgs = (i: number) => ({ query: POINT, params: [1 + ((i * 7919) % ITEMS)] });

function oursServer(): ServerUnderTest {
  const dir = resolve(BENCH_DIR, '../servers/sqlite');
  return { side: 'ours', label: '@refmcp/server-sqlite (built)', bin: join(dir, 'dist/index.js') };
}

/** Pids of `pid`'s descendants (Linux /proc). */
async function descendants(pid: number): Promise<number[]> {
  const out: number[] = [];
  const tasks = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  for (const child of tasks.split(/\s+/).filter(Boolean).map(Number))
    out.push(child, ...(await descendants(child)));
  return out;
}

/** Peak RSS of the server alone and summed with its live engine processes (each one's VmHWM). */
async function treePeakRss(session: Session): Promise<{ server?: number; tree?: number }> {
  const pid = session.pid;
  if (!pid) return {};
  const server = await peakRssBytes(pid);
  let tree = server ?? 0;
  for (const child of await descendants(pid)) tree += (await peakRssBytes(child)) ?? 0;
  return { server, tree };
}

const median = (values: number[]) => quantile(values, 0.5);
const cell = (values: (number | undefined)[]): Cell => {
  const v = values.filter((x): x is number => x !== undefined && Number.isFinite(x));
  return v.length ? { value: median(v) } : {};
};

export async function runSqliteSuite(ctx: Context): Promise<WorkloadResult> {
  // The report's header names the filesystem servers; our sessions must not claim its "ours" slot.
  const reported = reportedVersions.ours;
  try {
    return await sqliteSuite(ctx);
  } finally {
    if (reported === undefined) delete reportedVersions.ours;
  }
}

async function sqliteSuite(ctx: Context): Promise<WorkloadResult> {
  const { sizes } = ctx;
  const timeout = sizes.callTimeoutMs;
  const ours = oursServer();
  const db = await itemsDatabase(ctx.dataRoot, ours, timeout, ctx.log);
  const args = ['--db-path', db, '--statement-timeout', String(RUNAWAY_TIMEOUT_MS)];

  // S1: alternate ours / floor, fresh server each repetition.
  const point = {
    ours: [] as { cps: number; p50: number; p99: number }[],
    floor: [] as { cps: number; p50: number }[],
  };
  for (let rep = 0; rep < sizes.readReps; rep++) {
    ctx.log(`sqlite point query ×${sizes.calls}: ours ${rep + 1}/${sizes.readReps}`);
    point.ours.push(
      await withSession(ours, args, timeout, async (session) => {
        const call = async (i: number) => {
          const failure = await session.rawCall('read_query', pointArgs(i));
          return failure && `${describeCall('read_query', pointArgs(i))} → ${failure}`;
        };
        const run = await throughput(call, sizes);
        return { cps: run.callsPerSec, p50: run.p50, p99: run.p99 };
      }),
    );
    ctx.log(`sqlite point query ×${sizes.calls}: floor ${rep + 1}/${sizes.readReps}`);
    const f = await floorPoint(db, sizes.calls * 10, ITEMS);
    point.floor.push({ cps: f.callsPerSec, p50: f.p50 });
  }

  // S2: the 1M-row scan, fresh server each repetition (peak RSS is per process lifetime).
  const scan = {
    ours: [] as { ms: number; server?: number; tree?: number; head: string }[],
    floor: [] as { ms: number; rss?: number }[],
  };
  for (let rep = 0; rep < sizes.heavyReps; rep++) {
    ctx.log(`sqlite ${SCAN}: ours ${rep + 1}/${sizes.heavyReps}`);
    scan.ours.push(
      await withSession(ours, args, timeout, async (session) => {
        await callOk(session, 'read_query', pointArgs(0), timeout); // the warm engine is open
        const t0 = now();
        const result = await callOk(session, 'read_query', { query: SCAN }, timeout);
        const ms = now() - t0;
        const structured = result.structuredContent as { rowCount?: number; truncated?: boolean } | undefined;
        if (structured?.rowCount !== PAGE_ROWS || structured.truncated !== true)
          throw new Error(`${SCAN}: expected a first page of ${PAGE_ROWS} rows, truncated`);
        return { ms, ...(await treePeakRss(session)), head: preview(resultText(result)) };
      }),
    );
    ctx.log(`sqlite ${SCAN}: floor ${rep + 1}/${sizes.heavyReps}`);
    const f = await floorScan(db, PAGE_ROWS);
    scan.floor.push({ ms: f.firstPageMs, rss: f.peakRss });
  }

  // S3: another call while a runaway statement runs (ours only: in-process SQLite would block).
  ctx.log('sqlite runaway statement');
  const runaway = await withSession(ours, args, timeout, async (session) => {
    await callOk(session, 'read_query', pointArgs(1), timeout);
    const t0 = now();
    const pending = session.call('read_query', { query: RUNAWAY }, timeout);
    const at = async (ms: number) => {
      await new Promise((r) => setTimeout(r, Math.max(0, ms - (now() - t0))));
      const s = now();
      const failure = await session.rawCall('read_query', pointArgs(2));
      if (failure) throw new Error(`${describeCall('read_query', pointArgs(2))} → ${failure}`);
      return now() - s;
    };
    const early = await at(50);
    const late = await at(1000);
    const result = await pending;
    return {
      early,
      late,
      stoppedMs: now() - t0,
      text: preview(resultText(result)),
      isError: result.isError === true,
    };
  });

  const overhead = (o: number | undefined, f: number | undefined) =>
    o && f ? `the floor answers ${(f / o).toFixed(0)}× as many point queries per second as ours` : '—';
  const oursCps = cell(point.ours.map((r) => r.cps)).value;
  const floorCps = cell(point.floor.map((r) => r.cps)).value;
  const tree = cell(scan.ours.map((r) => r.tree)).value;
  return {
    rows: [
      row({
        id: 'S1',
        name: `sqlite point query calls/s (${sizes.inFlight} in flight; floor: in-process loop)`,
        unit: 'calls/s',
        better: 'higher',
        ours: cell(point.ours.map((r) => r.cps)),
        official: cell(point.floor.map((r) => r.cps)),
      }),
      row({
        id: 'S1',
        name: 'sqlite point query latency p50',
        unit: 'ms',
        better: 'lower',
        ours: cell(point.ours.map((r) => r.p50)),
        official: cell(point.floor.map((r) => r.p50)),
      }),
      row({
        id: 'S2',
        name: `sqlite ${SCAN} (${ITEMS / 1e6}M rows): time to first page (${PAGE_ROWS} rows)`,
        unit: 'ms',
        better: 'lower',
        ours: cell(scan.ours.map((r) => r.ms)),
        official: cell(scan.floor.map((r) => r.ms)),
      }),
      row({
        id: 'S2',
        name: `sqlite ${SCAN}: peak RSS, server + engine processes (floor: its process)`,
        unit: 'bytes',
        better: 'lower',
        ours: cell(scan.ours.map((r) => r.tree)),
        official: cell(scan.floor.map((r) => r.rss)),
        goal: {
          text: 'ours < 150 MiB',
          alsoRequired: { text: '< 150 MiB', met: tree === undefined ? undefined : tree < 150 * MiB },
        },
      }),
      row({
        id: 'S2',
        name: `sqlite ${SCAN}: peak RSS, server process alone`,
        unit: 'bytes',
        better: 'lower',
        ours: cell(scan.ours.map((r) => r.server)),
        official: cell(scan.floor.map((r) => r.rss)),
      }),
      row({
        id: 'S3',
        name: 'sqlite another call during a runaway, issued after 50 ms',
        unit: 'ms',
        better: 'lower',
        ours: { value: runaway.early },
        official: {},
        goal: { text: '< 100 ms', alsoRequired: { text: '< 100 ms', met: runaway.early < 100 } },
      }),
      row({
        id: 'S3',
        name: 'sqlite another call during a runaway, issued after 1 s',
        unit: 'ms',
        better: 'lower',
        ours: { value: runaway.late },
        official: {},
        goal: { text: '< 100 ms', alsoRequired: { text: '< 100 ms', met: runaway.late < 100 } },
      }),
      row({
        id: 'S3',
        name: `sqlite runaway statement stopped after (--statement-timeout ${RUNAWAY_TIMEOUT_MS})`,
        unit: 'ms',
        better: 'lower',
        ours: { value: runaway.stoppedMs },
        official: {},
      }),
    ],
    answers: [
      {
        name: 'S2 first page',
        call: describeCall('read_query', { query: SCAN }),
        ours: scan.ours[0]?.head ?? '—',
        official: `(floor) ${PAGE_ROWS} rows stepped with better-sqlite3 and JSON-encoded`,
      },
      {
        name: 'S3 runaway',
        call: describeCall('read_query', { query: RUNAWAY }),
        ours: `${runaway.isError ? '[isError] ' : ''}${runaway.text}`,
        official: '(floor) in-process better-sqlite3 blocks its thread until the statement ends',
      },
    ],
    notes: [
      'sqlite suite: the "official" column is the floor — better-sqlite3 12.6.2 in a plain Node process running the same ' +
        'SQL with no MCP (there is no maintained official SQLite MCP server on npm); ratio = ours ÷ floor',
      `sqlite overhead: ${overhead(oursCps, floorCps)} (one of our calls = JSON-RPC + argument and result validation + ` +
        'a pipe to the engine process + JSON encoding, each way; the floor is a bare function call)',
      `sqlite point query p99 (ours): ${point.ours.map((r) => `${r.p99.toFixed(1)} ms`).join('/')}`,
      'sqlite S3 has no floor: an in-process synchronous driver cannot answer another call until the runaway ends',
    ],
  };
}

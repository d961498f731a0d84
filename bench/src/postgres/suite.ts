/**
 * The PostgreSQL suite (`--only postgres`): our server and the official
 * @modelcontextprotocol/server-postgres 0.6.2 on the same database and the same SQL, alternated,
 * one run:
 *   P1 point-query calls/s (pipelined, one connection each) — goal ≥ 1.5×; and the server process's
 *      CPU time per call (load-independent: what a call costs, where calls/s also depends on how
 *      much of a busy machine each server got)
 *   P2 `SELECT *` over 100k rows: time to the (first) response — goal ≥ 10× faster (ratio ≤ 0.1),
 *      and the server's peak RSS — goal ≤ 0.5×
 *   P3 cold start to tools/list answered — goal ≤ 0.6×
 * Both get the database URL as their only argument (ours: read-only, its defaults). The official
 * server has no parameters, so the SQL carries literal values for both.
 */
import { now, throughput } from '../measure.js';
import { type Answer, row } from '../report.js';
import { resultText, type ServerUnderTest, withSession } from '../servers.js';
import {
  alternate,
  type Context,
  cellOf,
  describeCall,
  perSide,
  preview,
  type WorkloadResult,
} from '../workloads/common.js';
import { cpuMs } from './cpu.js';
import { BIG_ROWS, benchDatabase } from './data.js';
import { locatePostgresServers } from './servers.js';

const BIG_SQL = 'SELECT * FROM bench_users';
const pointSql = (i: number) =>
  `SELECT id, name, email FROM bench_users WHERE id = ${1 + ((i * 7919) % BIG_ROWS)}`;

interface PointRun {
  callsPerSec: number;
  p50: number;
  p99: number;
  /** Server process CPU ms per timed call (undefined off Linux). */
  cpuPerCall?: number;
}

interface BigRun {
  ms: number;
  peakRss?: number;
  bytes: number;
  head: string;
}

export async function runPostgresSuite(base: Context): Promise<WorkloadResult> {
  const servers = locatePostgresServers();
  const ctx: Context = { ...base, servers };
  const { sizes } = ctx;
  const timeout = sizes.callTimeoutMs;
  for (const side of ['ours', 'official'] as const)
    ctx.log(
      `postgres ${side}: ${servers[side].label}${servers[side].missing ? ` — ${servers[side].missing}` : ''}`,
    );
  if (servers.ours.missing) throw new Error(`our postgres server is ${servers.ours.missing}`);
  const database = await benchDatabase(servers.ours, timeout, ctx.log);
  const args = [database.url];
  try {
    const start = (server: ServerUnderTest) => withSession(server, args, timeout, async (s) => s.readyMs);
    await alternate(ctx, 1, 'postgres cold start warm-up', start);
    const cold = await alternate(ctx, sizes.coldStarts, 'postgres cold start', start);

    const point = await alternate(ctx, sizes.readReps, `postgres point query ×${sizes.calls}`, (server) =>
      withSession(server, args, timeout, async (session): Promise<PointRun> => {
        const call = async (i: number) => {
          const failure = await session.rawCall('query', { sql: pointSql(i) });
          return failure && `${describeCall('query', { sql: pointSql(i) })} → ${failure}`;
        };
        let cpuBefore: number | undefined;
        let cpuAfter: number | undefined;
        const run = await throughput(call, sizes, {
          before: async () => {
            cpuBefore = await cpuMs(session.pid);
          },
          after: async () => {
            cpuAfter = await cpuMs(session.pid);
          },
        });
        return {
          ...run,
          ...(cpuBefore !== undefined && cpuAfter !== undefined
            ? { cpuPerCall: (cpuAfter - cpuBefore) / sizes.calls }
            : {}),
        };
      }),
    );

    const big = await alternate(ctx, sizes.heavyReps, `postgres ${BIG_SQL}`, (server) =>
      withSession(server, args, timeout, async (session): Promise<BigRun> => {
        // One untimed point query so the pool's first connection is not charged to the big one.
        await session.rawCall('query', { sql: pointSql(0) });
        const t0 = now();
        const failure = await session.rawCall('query', { sql: BIG_SQL });
        const ms = now() - t0;
        if (failure) throw new Error(`${describeCall('query', { sql: BIG_SQL })} → ${failure}`);
        const peakRss = await session.peakRss();
        // The answer itself, outside the timing (the SDK client validates it).
        const result = await session.call('query', { sql: BIG_SQL }, timeout);
        const text = resultText(result);
        return { ms, peakRss, bytes: Buffer.byteLength(text), head: preview(text) };
      }),
    );

    const rows = [
      row({
        id: 'P1',
        name: `postgres point query calls/s (${sizes.inFlight} in flight)`,
        unit: 'calls/s',
        better: 'higher',
        ours: cellOf(point.ours, (r) => r.callsPerSec),
        official: cellOf(point.official, (r) => r.callsPerSec),
        goal: { ratioAtLeast: 1.5, text: '≥ 1.5×' },
      }),
      row({
        id: 'P1',
        name: 'postgres point query latency p50',
        unit: 'ms',
        better: 'lower',
        ours: cellOf(point.ours, (r) => r.p50),
        official: cellOf(point.official, (r) => r.p50),
      }),
      row({
        id: 'P1',
        name: 'postgres point query: server CPU per call',
        unit: 'ms',
        better: 'lower',
        ours: cellOf(point.ours, (r) => r.cpuPerCall),
        official: cellOf(point.official, (r) => r.cpuPerCall),
      }),
      row({
        id: 'P2',
        name: `postgres ${BIG_SQL} (${BIG_ROWS / 1000}k rows): time to response`,
        unit: 'ms',
        better: 'lower',
        ours: cellOf(big.ours, (r) => r.ms),
        official: cellOf(big.official, (r) => r.ms),
        goal: { ratioAtMost: 0.1, text: '≥ 10× faster' },
      }),
      row({
        id: 'P2',
        name: `postgres ${BIG_SQL}: peak RSS`,
        unit: 'bytes',
        better: 'lower',
        ours: cellOf(big.ours, (r) => r.peakRss),
        official: cellOf(big.official, (r) => r.peakRss),
        goal: { ratioAtMost: 0.5, text: '≤ 0.5×' },
      }),
      row({
        id: 'P3',
        name: `postgres cold start → tools/list (${sizes.coldStarts} starts)`,
        unit: 'ms',
        better: 'lower',
        ours: cellOf(cold.ours, (ms) => ms),
        official: cellOf(cold.official, (ms) => ms),
        goal: { ratioAtMost: 0.6, text: '≤ 0.6×' },
      }),
    ];
    const first = (side: 'ours' | 'official') => big[side].results[0];
    const answers: Answer[] = [
      {
        name: 'P2 answer',
        call: describeCall('query', { sql: BIG_SQL }),
        ours: first('ours')
          ? `${first('ours')?.bytes} bytes: ${first('ours')?.head}`
          : (big.ours.error ?? '—'),
        official: first('official')
          ? `${first('official')?.bytes} bytes: ${first('official')?.head}`
          : (big.official.error ?? '—'),
      },
    ];
    const notes = [
      `postgres suite: ours ${servers.ours.label}, official ${servers.official.label}; database ${database.embedded ? 'throwaway embedded PostgreSQL' : '$DATABASE_URL'}`,
      `postgres point query p99: ${perSide(point, (rs) => rs.map((r) => `${r.p99.toFixed(1)} ms`).join('/'))}`,
      `postgres ${BIG_SQL}: ours returns one bounded page with a "[truncated: …]" marker and a cursor; the official server returns every row`,
    ];
    return { rows, answers, notes };
  } finally {
    await database.stop();
  }
}

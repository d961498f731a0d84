/**
 * The insight suite's own cluster and database: pg_stat_statements preloaded (the embedded build
 * ships it as contrib), autovacuum off (so nothing but the test changes statistics), a role with
 * pg_monitor owning the database, and a seeded workload: slow filters and joins without indexes,
 * correlated columns (a misestimate), unused, duplicate and invalid indexes, a bloated table and a
 * sequence near its end.
 */
import { randomBytes } from 'node:crypto';
import { type PostgresService, startPostgres } from '@refmcp/test-harness';
import pg from 'pg';

export const ROWS = 60_000;

export const SEED_SQL = `
CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, region text NOT NULL);
INSERT INTO customers SELECT i, 'customer ' || i, (ARRAY['north','south','east','west'])[1 + i % 4]
  FROM generate_series(1, 5000) i;
CREATE TABLE orders (
  id integer PRIMARY KEY, customer_id integer NOT NULL, status text NOT NULL,
  created_at timestamptz NOT NULL, amount numeric(12,2) NOT NULL, a integer NOT NULL, b integer NOT NULL);
INSERT INTO orders SELECT i, 1 + i % 5000, (ARRAY['open','paid','shipped','closed'])[1 + i % 4],
  timestamptz '2024-01-01 00:00:00+00' + i * interval '1 minute', (i % 997) * 1.5, i % 100, i % 100
  FROM generate_series(1, ${ROWS}) i;
CREATE INDEX orders_status_idx ON orders (status);
CREATE INDEX orders_status_created_idx ON orders (status, created_at);
CREATE INDEX orders_id_copy_idx ON orders (id);
CREATE INDEX orders_amount_idx ON orders (amount);
CREATE TABLE bloated (id integer, pad text) WITH (autovacuum_enabled = off);
INSERT INTO bloated SELECT i, repeat('x', 200) FROM generate_series(1, 40000) i;
DELETE FROM bloated WHERE id % 10 <> 0;
CREATE SEQUENCE nearly_done AS smallint;
SELECT setval('nearly_done', 32000);
CREATE TABLE dupes (v integer);
INSERT INTO dupes VALUES (1), (1);
`;

/** The workload pg_stat_statements records (run as the role, after a reset). */
export const SLOW_BY_CUSTOMER = 'SELECT * FROM orders WHERE customer_id = $1';
export const SLOW_JOIN =
  'SELECT c.region, count(*) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.created_at > $1::timestamptz AND c.name = $2 GROUP BY c.region';
export const SLEEPY = 'SELECT pg_sleep($1::float8)';

export interface InsightCluster {
  service: PostgresService;
  adminUrl: string;
  url: string;
  /** A second database on the same cluster where the extension is not created. */
  bareUrl: string;
  stop(): Promise<void>;
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export async function startInsightCluster(opts: { preload: boolean }): Promise<InsightCluster> {
  const service = await startPostgres({
    embedded: true,
    settings: {
      autovacuum: 'off',
      ...(opts.preload ? { shared_preload_libraries: 'pg_stat_statements' } : {}),
    },
  });
  const password = randomBytes(12).toString('hex');
  await withClient(service.url, async (c) => {
    await c.query(`CREATE ROLE insight LOGIN PASSWORD '${password}'`);
    await c.query('GRANT pg_monitor TO insight');
    await c.query('CREATE DATABASE insight OWNER insight');
    await c.query('CREATE DATABASE bare OWNER insight');
  });
  const at = (db: string, user?: { name: string; password: string }) => {
    const u = new URL(service.url);
    u.pathname = `/${db}`;
    if (user) {
      u.username = user.name;
      u.password = user.password;
    }
    return u.href;
  };
  const adminUrl = at('insight');
  const url = at('insight', { name: 'insight', password });
  if (opts.preload) await withClient(adminUrl, (c) => c.query('CREATE EXTENSION pg_stat_statements'));
  await withClient(url, async (c) => {
    await c.query(SEED_SQL);
    // A failed CREATE INDEX CONCURRENTLY leaves an invalid index behind (docs sql-createindex.html).
    await c.query('CREATE UNIQUE INDEX CONCURRENTLY dupes_v_idx ON dupes (v)').catch(() => {});
    await c.query('ANALYZE');
  });
  return {
    service,
    adminUrl,
    url,
    bareUrl: at('bare', { name: 'insight', password }),
    stop: () => service.stop(),
  };
}

/** Resets pg_stat_statements and runs the seeded workload as the role. */
export async function runWorkload(cluster: InsightCluster): Promise<void> {
  await withClient(cluster.adminUrl, (c) => c.query('SELECT pg_stat_statements_reset()'));
  await withClient(cluster.url, async (c) => {
    for (let i = 1; i <= 15; i++) await c.query(SLOW_BY_CUSTOMER, [i]);
    for (let i = 1; i <= 5; i++) await c.query(SLOW_JOIN, ['2024-01-10', `customer ${i}`]);
    await c.query(SLEEPY, [0.3]);
    await c.query("SELECT * FROM orders WHERE status = 'open' ORDER BY created_at DESC LIMIT 10");
  });
}

/**
 * What a read-only tool must never change: relations, indexes and their validity, extensions,
 * planner statistics (reltuples/relpages, pg_statistic rows), vacuum/analyze counts, sequences.
 */
export async function catalogState(adminUrl: string): Promise<string> {
  const queries = [
    `SELECT c.oid::int, c.relname, c.relkind, c.reltuples, c.relpages FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT IN ('pg_catalog','information_schema','pg_toast')
      ORDER BY 1`,
    'SELECT indexrelid::int, indisvalid FROM pg_index ORDER BY 1',
    'SELECT extname, extversion FROM pg_extension ORDER BY 1',
    'SELECT count(*)::int FROM pg_statistic',
    'SELECT relname, vacuum_count, autovacuum_count, analyze_count, autoanalyze_count, last_analyze::text FROM pg_stat_user_tables ORDER BY 1',
    'SELECT sequencename, last_value::text FROM pg_sequences ORDER BY 1',
    'SELECT count(*)::int FROM pg_prepared_xacts',
  ];
  return withClient(adminUrl, async (c) => {
    const parts: unknown[] = [];
    // One query at a time: pg 8 deprecates queueing several on one client.
    for (const text of queries) parts.push((await c.query(text)).rows);
    return JSON.stringify(parts);
  });
}

/** Rows of one statement on `url` (bigint as number), for the bench's peer figures. */
export async function queryRows(url: string, sql: string): Promise<Record<string, unknown>[]> {
  return withClient(url, async (c) => {
    c.setTypeParser(20, (x: string) => Number(x));
    return (await c.query(sql)).rows;
  });
}

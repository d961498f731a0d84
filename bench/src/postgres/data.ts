/**
 * The bench database: a throwaway PostgreSQL (or $DATABASE_URL) from the test harness, loaded with
 * a `bench_users` table of 100,000 rows through our own server's execute tool (so the bench needs
 * no SQL client of its own).
 */
import { type PostgresService, startPostgres } from '@refmcp/test-harness';
import { type ServerUnderTest, Session } from '../servers.js';
import { callOk } from '../workloads/common.js';

/** Rows in the big table. */
export const BIG_ROWS = 100_000;

const LOAD = [
  'DROP TABLE IF EXISTS bench_users',
  `CREATE TABLE bench_users (
     id bigint PRIMARY KEY, name text NOT NULL, email text NOT NULL,
     created_at timestamptz NOT NULL, score numeric(10,2), bio text)`,
  `INSERT INTO bench_users
     SELECT i, 'user ' || i, 'user' || i || '@example.com',
            timestamptz '2024-01-01 00:00:00+00' + i * interval '1 minute', (i % 1000) / 10.0, repeat('x', 40)
       FROM generate_series(1, ${BIG_ROWS}) AS i`,
  'ANALYZE bench_users',
];

/** Starts the database and loads the table with `ours` (started with --allow-writes). */
export async function benchDatabase(
  ours: ServerUnderTest,
  timeoutMs: number,
  log: (m: string) => void,
): Promise<PostgresService> {
  const service = await startPostgres();
  log(
    `postgres: ${service.embedded ? 'throwaway embedded cluster' : '$DATABASE_URL'}; loading ${BIG_ROWS} rows`,
  );
  try {
    const loader = await Session.start(
      ours,
      [service.url, '--allow-writes', '--statement-timeout', '120000'],
      timeoutMs,
    );
    try {
      for (const sql of LOAD) await callOk(loader, 'execute', { sql }, timeoutMs);
    } finally {
      await loader.close();
    }
  } catch (error) {
    await service.stop();
    throw error;
  }
  return service;
}

/**
 * The SQLite bench database: `items`, 1,000,000 rows, built once into bench/.bench-data/ through our
 * own server (create_table + one write_query, started with --allow-writes), so the bench needs no
 * SQLite code of its own for the data. Built under a temporary name and renamed when complete.
 */
import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerUnderTest } from '../servers.js';
import { Session } from '../servers.js';
import { callOk } from '../workloads/common.js';

/** Rows in `items`. */
export const ITEMS = 1_000_000;

const LOAD = [
  [
    'create_table',
    'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL NOT NULL, note TEXT)',
  ],
  [
    'write_query',
    `INSERT INTO items
       WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${ITEMS})
       SELECT i, 'item ' || i, (i % 10000) / 100.0, printf('note %08d lorem ipsum dolor sit amet', i) FROM c`,
  ],
] as const;

/** The path of the bench database, building it with `ours` unless it exists. */
export async function itemsDatabase(
  dataRoot: string,
  ours: ServerUnderTest,
  timeoutMs: number,
  log: (m: string) => void,
): Promise<string> {
  const file = join(dataRoot, `sqlite-items-${ITEMS}.db`);
  try {
    await stat(file);
    return file;
  } catch {
    // build it below
  }
  const tmp = `${file}.tmp-${process.pid}`;
  await rm(tmp, { force: true });
  const started = performance.now();
  log(`sqlite: generating ${ITEMS} rows through our server …`);
  const loader = await Session.start(
    ours,
    ['--db-path', tmp, '--allow-writes', '--statement-timeout', '600000'],
    timeoutMs,
  );
  try {
    for (const [tool, query] of LOAD) await callOk(loader, tool, { query }, timeoutMs);
  } finally {
    await loader.close();
  }
  await rename(tmp, file);
  log(`sqlite: generated ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return file;
}

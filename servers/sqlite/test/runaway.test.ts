/**
 * Responsive under runaway queries (ALL-07): a statement that would run forever inside one SQLite
 * step is stopped at --statement-timeout with an error naming the timeout; other calls answer
 * meanwhile; a killed writer leaves the database consistent (its transaction rolled back); a
 * cancelled call stops its statement.
 */
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  type Connection,
  callChecked,
  descendantPids,
  isAlive,
  resultText,
  structured,
  tempDir,
} from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDb, startServer } from './support.js';

/** Counts an endless recursive CTE: one sqlite3_step that never returns on its own. */
const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
const TIMEOUT_MS = 1500;

let dir: string;
let cleanup: () => Promise<void>;
let conn: Connection;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  const file = join(dir, 'runaway.db');
  makeDb(
    file,
    "CREATE TABLE t (x INTEGER); CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT); INSERT INTO kv VALUES ('a', 'b');",
  );
  conn = await startServer(['--db-path', file, '--allow-writes', '--statement-timeout', String(TIMEOUT_MS)]);
});
afterAll(async () => {
  await conn?.close();
  await cleanup();
});

describe('runaway statements', () => {
  it('ALL-07 a runaway read is stopped at --statement-timeout while other calls answer', async () => {
    const started = performance.now();
    let runawayAnswered = false;
    const runaway = callChecked(conn, 'read_query', { query: RUNAWAY }).finally(() => {
      runawayAnswered = true;
    });
    await new Promise((r) => setTimeout(r, 300));
    const point = await callChecked(conn, 'read_query', {
      query: 'SELECT v FROM kv WHERE k = ?',
      params: ['a'],
    });
    expect(structured(point)).toMatchObject({ rows: [['b']] });
    // Answered while the runaway still ran: it did not wait for it (however slow the machine).
    expect(runawayAnswered).toBe(false);
    const result = await runaway;
    const elapsed = performance.now() - started;
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain(
      `timed out after ${TIMEOUT_MS} ms (--statement-timeout ${TIMEOUT_MS})`,
    );
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    // Stopped at the timeout, not left to run: the error names the timeout that fired.
    // The server still reads after the engine that ran the runaway was killed and replaced.
    expect(structured(await callChecked(conn, 'read_query', { query: 'SELECT 1' }))).toMatchObject({
      rows: [[1]],
    });
  });

  it('ALL-07 a runaway write is stopped and its transaction rolled back; writes work afterwards', async () => {
    const endless = `INSERT INTO t SELECT x FROM (${RUNAWAY.replace('SELECT count(*) FROM c', 'SELECT x FROM c')})`;
    const result = await callChecked(conn, 'write_query', { query: endless });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('--statement-timeout');
    const count = await callChecked(conn, 'read_query', { query: 'SELECT count(*) FROM t' });
    expect(structured(count)).toMatchObject({ rows: [[0]] });
    const insert = await callChecked(conn, 'write_query', { query: 'INSERT INTO t VALUES (?)', params: [1] });
    expect(insert.isError, resultText(insert)).toBeFalsy();
    const check = await callChecked(conn, 'read_query', { query: 'PRAGMA integrity_check' });
    expect(structured(check)).toMatchObject({ rows: [['ok']] });
  });

  it('a read running beside a runaway when its engine is killed is retried and answers', async () => {
    // The runaway's engine is killed when its call is cancelled (the same kill as at the timeout),
    // with a statement timeout long enough that the retried read never meets it on a loaded machine.
    const server = await startServer(['--db-path', join(dir, 'runaway.db'), '--statement-timeout', '60000']);
    try {
      await callChecked(server, 'read_query', { query: 'SELECT 1' });
      const controller = new AbortController();
      const runaway = server.client
        .request(
          { method: 'tools/call', params: { name: 'read_query', arguments: { query: RUNAWAY } } },
          { signal: controller.signal, timeout: 120_000 },
        )
        .catch((error: Error) => error);
      await new Promise((r) => setTimeout(r, 300));
      // A finite statement (about 1.5 s alone) on the sibling slot of the runaway's engine process.
      const finite =
        'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000) SELECT count(*) FROM c';
      const sibling = callChecked(server, 'read_query', { query: finite });
      // Two pings in turn: the server has read the sibling's call and handed it to the engine by the
      // time it answers the second; then the runaway's engine is killed under it.
      for (let i = 0; i < 2; i++) await server.client.ping();
      const engines = descendantPids(server.pid);
      controller.abort();
      expect(await runaway).toBeInstanceOf(Error);
      const answer = await sibling;
      expect(answer.isError, resultText(answer)).toBeFalsy();
      expect(structured(answer)).toMatchObject({ rows: [[1000000]] });
      // The engine process the two shared was killed (and replaced): the sibling's answer is a retry's.
      expect(engines.filter((pid) => !isAlive(pid)).length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('ALL-04 a server killed with SIGKILL during a runaway leaves no engine process behind', async () => {
    const victim = await startServer(['--db-path', join(dir, 'runaway.db'), '--statement-timeout', '60000']);
    try {
      const runaway = callChecked(victim, 'read_query', { query: RUNAWAY }).catch(() => undefined);
      // The engine process that runs it (started on demand: later on a loaded machine).
      await expect.poll(() => descendantPids(victim.pid).length, { timeout: 20_000 }).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 300));
      const engines = descendantPids(victim.pid);
      expect(engines.length).toBeGreaterThan(0);
      process.kill(victim.pid, 'SIGKILL');
      await runaway;
      // The idle sibling connection sees its pipe close and ends the engine, runaway included.
      const deadline = Date.now() + 20_000;
      while (engines.some((pid) => isAlive(pid)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(engines.filter((pid) => isAlive(pid))).toEqual([]);
    } finally {
      await victim.close();
    }
  });

  it('a cancelled call stops its statement (the engine is replaced, nothing keeps running)', async () => {
    const controller = new AbortController();
    const pending = conn.client
      .request(
        { method: 'tools/call', params: { name: 'read_query', arguments: { query: RUNAWAY } } },
        { signal: controller.signal, timeout: 10_000 },
      )
      .catch((error: Error) => error);
    await new Promise((r) => setTimeout(r, 300));
    const busy = descendantPids(conn.pid).length;
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    // The killed engine goes (its replacement may start first); no process is left spinning on the
    // cancelled statement.
    await expect.poll(() => descendantPids(conn.pid).length, { timeout: 20_000 }).toBeLessThanOrEqual(busy);
    const r: CallToolResult = await callChecked(conn, 'read_query', { query: 'SELECT 2' });
    expect(structured(r)).toMatchObject({ rows: [[2]] });
  });
});

describe('after timed-out and failing calls', () => {
  /** A write that never ends on its own (killed at the deadline, leaving a hot journal). */
  const ENDLESS_WRITE =
    'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) INSERT INTO log SELECT x FROM c';
  // Every call's deadline covers its wait for a connection, and after a kill that wait includes
  // starting a new engine process (and rolling a killed writer's journal back): seconds on a loaded
  // machine. The healthy calls must finish inside it, so it is not the 1 s it could be when idle.
  const MS = 3000;
  let server: Connection;

  beforeAll(async () => {
    makeDb(join(dir, 'mix.db'), 'CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 2);');
    server = await startServer([
      '--db-path',
      join(dir, 'mix.db'),
      '--allow-writes',
      '--statement-timeout',
      String(MS),
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  const calls = {
    timedOutRead: () => callChecked(server, 'read_query', { query: RUNAWAY }),
    timedOutWrite: () => callChecked(server, 'write_query', { query: ENDLESS_WRITE }),
    failingRead: () => callChecked(server, 'read_query', { query: 'SELECT * FROM nonexist' }),
    failingWrite: () => callChecked(server, 'write_query', { query: 'INSERT INTO nonexist VALUES (1)' }),
  };

  /** A read and a write answer (well before the statement timeout would hide a stuck wait). */
  async function expectHealthy(label: string): Promise<void> {
    const read = await callChecked(server, 'read_query', { query: 'SELECT count(*) FROM log' });
    expect(read.isError, `${label}: ${resultText(read)}`).toBeFalsy();
    expect(structured(read), label).toMatchObject({ rows: [[0]] });
    const write = await callChecked(server, 'write_query', { query: 'UPDATE t SET b = b WHERE a = 1' });
    expect(write.isError, `${label}: ${resultText(write)}`).toBeFalsy();
    expect(structured(write), label).toMatchObject({ changes: 1 });
  }

  it('a failing write right after a timed-out write leaves reads working', async () => {
    const created = await callChecked(server, 'create_table', { query: 'CREATE TABLE log(x)' });
    expect(created.isError, resultText(created)).toBeFalsy();
    const endless = await calls.timedOutWrite();
    expect(endless.isError).toBe(true);
    expect(resultText(endless)).toContain('--statement-timeout');
    const failing = await calls.failingWrite();
    expect(failing.isError).toBe(true);
    expect(resultText(failing)).toContain('no such table: nonexist');
    // The bug: every read from here on waited for a writer recovery nobody ended, and timed out.
    for (let i = 0; i < 3; i++) {
      const read = await callChecked(server, 'read_query', { query: 'SELECT count(*) FROM log' });
      expect(read.isError, resultText(read)).toBeFalsy();
      expect(structured(read)).toMatchObject({ rows: [[0]] });
    }
    await expectHealthy('timed-out write, failing write');
  }, 60_000);

  it('any mix of timed-out and failing reads and writes leaves a read and a write working', async () => {
    type Kind = keyof typeof calls;
    await callChecked(server, 'create_table', { query: 'CREATE TABLE IF NOT EXISTS log(x)' });
    // Each step runs its calls together; steps run one after another, without a pause.
    const sequences: Kind[][][] = [
      [['timedOutWrite'], ['failingWrite']],
      [['timedOutWrite'], ['failingRead']],
      [['timedOutWrite'], ['timedOutWrite'], ['failingWrite', 'failingRead']],
      [['timedOutRead'], ['failingWrite'], ['failingRead']],
      [
        ['timedOutRead', 'timedOutWrite'],
        ['failingWrite', 'failingRead'],
      ],
      [['failingWrite', 'timedOutWrite', 'failingRead', 'timedOutRead'], ['failingWrite']],
      [['timedOutWrite', 'failingWrite', 'failingWrite']],
    ];
    for (const sequence of sequences) {
      const label = sequence.map((step) => step.join('+')).join(' → ');
      for (const step of sequence) {
        const results = await Promise.all(step.map((kind) => calls[kind]()));
        results.forEach((r, i) => {
          expect(r.isError, `${label}: ${step[i]} should fail: ${resultText(r)}`).toBe(true);
        });
      }
      await expectHealthy(label);
    }
    const check = await callChecked(server, 'read_query', { query: 'PRAGMA integrity_check' });
    expect(structured(check)).toMatchObject({ rows: [['ok']] });
  }, 180_000);
});

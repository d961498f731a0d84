/**
 * Connecting and staying connected: URL, DATABASE_URL or PG* variables; errors that name host,
 * port, database and SSL but never the password (ALL-03 with an auth failure); a dead or restarted
 * connection recovered on the next call; timeouts on connect; cancellation stops the query.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { type Connection, callChecked, resultText, serverBin, structured } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from './global-setup.js';
import { asAdmin, db, startServer } from './support.js';

const pgEnv = () => {
  const u = new URL(db().url);
  return {
    PGHOST: u.hostname,
    PGPORT: u.port,
    PGUSER: decodeURIComponent(u.username),
    PGPASSWORD: PASSWORD,
    PGDATABASE: u.pathname.slice(1),
  };
};

/** Our server's backends that are running a statement now. */
export const ACTIVE =
  "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'mcp-server-postgres' AND state = 'active' AND datname = current_database()";

function everythingSaid(conn: Connection): string {
  return `${conn.stdoutLines().join('\n')}\n${conn.stderr()}`;
}

describe('connection settings', () => {
  it('takes the URL from DATABASE_URL, or libpq PG* variables, when no argument is given', async () => {
    for (const env of [{ DATABASE_URL: db().url }, pgEnv()]) {
      const conn = await startServer([], { url: false, env });
      try {
        const r = await callChecked(conn, 'query', { sql: 'SELECT current_database()' });
        expect(r.isError, resultText(r)).toBeFalsy();
        expect(structured<{ rows: unknown[][] }>(r).rows[0]).toEqual([db().database]);
      } finally {
        await conn.close();
      }
    }
  });

  it('an authentication failure names host, port, database, user and SSL — never the password', async () => {
    const bad = new URL(db().url);
    bad.username = 'nobody';
    for (const opts of [{ url: bad.href }, { url: false as const, env: { ...pgEnv(), PGUSER: 'nobody' } }]) {
      const conn = await startServer([], opts);
      try {
        const r = await callChecked(conn, 'query', { sql: 'SELECT 1' });
        expect(r.isError).toBe(true);
        const text = resultText(r);
        expect(text).toContain(
          `could not connect to PostgreSQL at ${bad.host}, database "${db().database}", user "nobody", SSL off`,
        );
        expect(text).toMatch(/password authentication failed.*\[28P01\]; check the user name and password/);
        // A validation error too, then nothing anywhere holds the password.
        await callChecked(conn, 'query', { sql: 1 });
        expect(everythingSaid(conn)).not.toContain(PASSWORD);
      } finally {
        await conn.close();
      }
    }
  });

  it('starts and lists its tools while the database is down; the call says what failed', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => resolve(port));
      });
    });
    const conn = await startServer([], {
      url: `postgresql://u:${PASSWORD}@127.0.0.1:${closed}/somedb?sslmode=disable`,
    });
    try {
      expect((await conn.client.listTools()).tools.length).toBeGreaterThan(0);
      const r = await callChecked(conn, 'list_tables', {});
      expect(resultText(r)).toMatch(
        new RegExp(
          `^could not connect to PostgreSQL at 127.0.0.1:${closed}, database "somedb", user "u", SSL off: .*ECONNREFUSED`,
        ),
      );
      expect(everythingSaid(conn)).not.toContain(PASSWORD);
    } finally {
      await conn.close();
    }
  });

  it('a server that accepts but never answers: the connect timeout ends the call', async () => {
    const silent: Server = createServer(() => {}).listen(0, '127.0.0.1');
    await new Promise((r) => silent.once('listening', r));
    const port = (silent.address() as { port: number }).port;
    const conn = await startServer(['--connect-timeout', '700'], {
      url: `postgresql://u@127.0.0.1:${port}/db`,
    });
    try {
      const r = await callChecked(conn, 'query', { sql: 'SELECT 1' });
      expect(resultText(r)).toMatch(/^could not connect to PostgreSQL at 127.0.0.1:\d+.*timeout/i);
    } finally {
      await conn.close();
      silent.close();
    }
  });

  it('a bad URL is a startup error (exit 2) that does not echo the URL', () => {
    const bin = serverBin('postgres');
    const run = spawnSync(bin.command, [...bin.args, `mysql://u:${PASSWORD}@h/db`], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('the database URL must start with postgresql://');
    expect(run.stderr + run.stdout).not.toContain(PASSWORD);
  });

  it('issue 27: no URL, DATABASE_URL or PG* variable is a startup error (exit 2) saying how to name the database', () => {
    const bin = serverBin('postgres');
    const run = spawnSync(bin.command, bin.args, {
      encoding: 'utf8',
      input: '',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('no database given');
    expect(run.stderr).toContain('DATABASE_URL');
    expect(run.stdout).toBe('');
  }, 60_000);

  it('issue 27: --tools execute with --read-only is a startup error (exit 2) naming --allow-writes and --read-only', () => {
    const bin = serverBin('postgres');
    const run = spawnSync(
      bin.command,
      [...bin.args, 'postgresql://u@127.0.0.1:1/db', '--read-only', '--tools', 'query,execute'],
      { encoding: 'utf8', input: '', timeout: 30_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      '--tools: execute is off in this configuration: start the server with --allow-writes (and without --read-only)',
    );
  }, 60_000);

  it('--tools execute --allow-writes --read-only is a startup error (exit 2) saying they contradict', () => {
    const bin = serverBin('postgres');
    const run = spawnSync(
      bin.command,
      [...bin.args, 'postgresql://u@127.0.0.1:1/db', '--tools', 'execute', '--allow-writes', '--read-only'],
      { encoding: 'utf8', input: '', timeout: 30_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--tools execute and --read-only contradict');
    expect(run.stderr).toContain('drop --read-only');
    expect(run.stderr).not.toContain('start the server with --allow-writes');
    expect(run.stdout).toBe('');
  }, 60_000);
});

describe('resilience', () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(['--pool-size', '2']);
  });
  afterAll(() => conn.close());

  const terminate = (filter: string) =>
    asAdmin((c) =>
      c.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = 'mcp-server-postgres' AND datname = current_database() AND ${filter}`,
      ),
    );

  it('a connection killed mid-call: that call says so clearly, the next one works', async () => {
    const slow = callChecked(conn, 'query', { sql: 'SELECT pg_sleep(20)' });
    // Kill it once it runs (the first call also loads the SQL parser and connects).
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 100));
      if ((await terminate("state = 'active' AND query LIKE 'SELECT pg_sleep%'")).rowCount) break;
    }
    const r = await slow;
    expect(r.isError).toBe(true);
    expect(resultText(r)).toMatch(
      /connection to PostgreSQL at .* was lost during this call .*next call opens a new one/,
    );
    const next = await callChecked(conn, 'query', { sql: 'SELECT 1 AS ok' });
    expect(next.isError, resultText(next)).toBeFalsy();
  });

  it('every connection dropped (as by a server restart): recovered on the next call', async () => {
    await callChecked(conn, 'query', { sql: 'SELECT 1' });
    await terminate('true');
    await new Promise((r) => setTimeout(r, 300));
    const next = await callChecked(conn, 'query', { sql: 'SELECT 2 AS ok' });
    expect(next.isError, resultText(next)).toBeFalsy();
    expect(conn.exitStatus()).toBeUndefined();
  });

  it('a cancelled call stops its query in the database', async () => {
    const controller = new AbortController();
    const pending = conn.client
      .request(
        { method: 'tools/call', params: { name: 'query', arguments: { sql: 'SELECT pg_sleep(25)' } } },
        { signal: controller.signal, timeout: 30_000 },
      )
      .catch(() => 'aborted');
    await new Promise((r) => setTimeout(r, 400));
    controller.abort('test cancels');
    expect(await pending).toBe('aborted');
    let running = '1';
    for (let i = 0; i < 30 && running !== '0'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      running = await asAdmin(async (c) => (await c.query(ACTIVE)).rows[0].count);
    }
    expect(running).toBe('0');
  });
});

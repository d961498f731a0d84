/**
 * Resources, completions and the prompt: memo://insights updated by append_insight (with
 * notifications in both eras), sqlite://schema/{table} (odd names percent-encoded, completions of
 * table names), resources/list_changed after a schema change, and the mcp-demo prompt.
 */
import { join } from 'node:path';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SQL, makeDb, startServer } from './support.js';

let dir: string;
let cleanup: () => Promise<void>;
let conn: Connection;
let modern: Connection;

/** Resolves with the next notification of `method` (its params), or undefined after `ms`. */
function next(c: Connection, method: string, ms: number): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    c.client.setNotificationHandler(method as 'notifications/resources/updated', (n) => {
      clearTimeout(timer);
      resolve((n.params ?? {}) as Record<string, unknown>);
    });
  });
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  const file = join(dir, 'res.db');
  makeDb(file, FIXTURE_SQL);
  [conn, modern] = await Promise.all([
    startServer(['--db-path', file, '--allow-writes']),
    startServer(['--db-path', file], 'modern'),
  ]);
});
afterAll(async () => {
  await Promise.all([conn?.close(), modern?.close()]);
  await cleanup();
});

describe('memo://insights', () => {
  it('append_insight adds to the memo and a subscriber is notified (2025-11-25)', async () => {
    const empty = await conn.client.readResource({ uri: 'memo://insights' });
    expect(empty.contents[0]).toMatchObject({ text: 'No business insights have been discovered yet.' });
    await conn.client.subscribeResource({ uri: 'memo://insights' });
    const update = next(conn, 'notifications/resources/updated', 5000);
    const r = await callChecked(conn, 'append_insight', { insight: 'Ann writes the most notes.' });
    expect(resultText(r)).toContain('1 insight so far');
    expect(await update).toEqual({ uri: 'memo://insights' });
    const memo = await conn.client.readResource({ uri: 'memo://insights' });
    expect(memo.contents[0]).toMatchObject({ mimeType: 'text/plain' });
    expect((memo.contents[0] as { text: string }).text).toContain('- Ann writes the most notes.');
    await expect(conn.client.subscribeResource({ uri: 'sqlite://schema/users' })).rejects.toThrow(
      /Only memo:\/\/insights sends updates/,
    );
  });

  it('sends no update to a client that never subscribed, nor after it unsubscribed (issue 28)', async () => {
    const other = await startServer(['--db-path', join(dir, 'res.db'), '--allow-writes']);
    try {
      const seen: unknown[] = [];
      other.client.setNotificationHandler('notifications/resources/updated', (n) => void seen.push(n.params));
      // A notification is written before the tool's answer on the same stream: once the call
      // returns, any update it caused has been read.
      await callChecked(other, 'append_insight', { insight: 'Nobody asked for this one.' });
      expect(seen).toEqual([]);
      await other.client.subscribeResource({ uri: 'memo://insights' });
      await callChecked(other, 'append_insight', { insight: 'Asked for.' });
      expect(seen).toEqual([{ uri: 'memo://insights' }]);
      await other.client.unsubscribeResource({ uri: 'memo://insights' });
      await callChecked(other, 'append_insight', { insight: 'No longer asked for.' });
      expect(seen).toEqual([{ uri: 'memo://insights' }]);
    } finally {
      await other.close();
    }
  });

  it('a 2026-07-28 listen stream on memo://insights receives the update', async () => {
    const subscription = await modern.client.listen({ resourceSubscriptions: ['memo://insights'] });
    try {
      const update = next(modern, 'notifications/resources/updated', 5000);
      await callChecked(modern, 'append_insight', { insight: 'Bo has one note.' });
      expect(await update).toMatchObject({ uri: 'memo://insights' });
    } finally {
      await subscription.close();
    }
  });

  it('2026-07-28: listen acknowledges memo://insights only, then delivers its update (issue 28)', async () => {
    const subscription = await modern.client.listen({
      resourceSubscriptions: ['sqlite://schema/users', 'memo://insights', 'memo://other'],
    });
    try {
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual(['memo://insights']);
      const update = next(modern, 'notifications/resources/updated', 5000);
      await callChecked(modern, 'append_insight', { insight: 'Cy has two notes.' });
      expect(await update).toMatchObject({ uri: 'memo://insights' });
    } finally {
      await subscription.close();
    }
    const none = await modern.client.listen({ resourceSubscriptions: ['sqlite://schema/users'] });
    try {
      expect(none.honoredFilter.resourceSubscriptions).toBeUndefined();
    } finally {
      await none.close();
    }
  });
});

describe('sqlite://schema/{table}', () => {
  it('reads a table schema by its percent-encoded name; unknown tables are not found', async () => {
    const uri = `sqlite://schema/${encodeURIComponent('weird "name"')}`;
    const r = await conn.client.readResource({ uri });
    const table = JSON.parse((r.contents[0] as { text: string }).text) as {
      name: string;
      columns: { name: string }[];
    };
    expect(table.name).toBe('weird "name"');
    expect(table.columns.map((c) => c.name)).toEqual(['a', 'b c']);
    const notes = await conn.client.readResource({ uri: 'sqlite://schema/notes' });
    const described = JSON.parse((notes.contents[0] as { text: string }).text) as {
      foreignKeys: { table: string; from: string[]; onDelete: string }[];
    };
    expect(described.foreignKeys).toEqual([
      expect.objectContaining({ table: 'users', from: ['user_id'], onDelete: 'CASCADE' }),
    ]);
    await expect(conn.client.readResource({ uri: 'sqlite://schema/nope' })).rejects.toThrow();
  });

  it('completes table names for the {table} variable', async () => {
    const r = await conn.client.complete({
      ref: { type: 'ref/resource', uri: 'sqlite://schema/{table}' },
      argument: { name: 'table', value: 'w' },
    });
    expect(r.completion.values).toEqual(['weird "name"', 'with spaces']);
  });

  it('a schema change sends resources/list_changed and the new table is listed', async () => {
    const changed = next(conn, 'notifications/resources/list_changed', 5000);
    const r = await callChecked(conn, 'create_table', {
      query: 'CREATE TABLE added (id INTEGER PRIMARY KEY)',
    });
    expect(r.isError, resultText(r)).toBeFalsy();
    expect(await changed).toBeDefined();
    const { resources } = await conn.client.listResources();
    expect(resources.map((x) => x.uri)).toContain('sqlite://schema/added');
  });
});

describe('describe_table and explain_query', () => {
  it('describe_table lists indexes and foreign keys', async () => {
    const users = await callChecked(conn, 'describe_table', { table_name: 'users' });
    expect(users.structuredContent).toMatchObject({
      indexes: [{ name: 'users_name', unique: false, origin: 'c', columns: ['name'] }],
    });
    expect(resultText(users)).toContain('"users_name" on ["name"] (CREATE INDEX)');
    const notes = await callChecked(conn, 'describe_table', { table_name: 'notes' });
    expect(resultText(notes)).toContain('["user_id"] → "users"["id"] ON UPDATE NO ACTION ON DELETE CASCADE');
  });

  it('explain_query shows the plan, with the index it uses, without running the statement', async () => {
    const r = await callChecked(conn, 'explain_query', {
      query: 'SELECT n.body FROM users u JOIN notes n ON n.user_id = u.id WHERE u.name = ?',
      params: ['Ann'],
    });
    expect(r.isError, resultText(r)).toBeFalsy();
    expect(resultText(r)).toMatch(/^QUERY PLAN\n/);
    expect(resultText(r)).toContain('USING');
    const del = await callChecked(conn, 'explain_query', { query: 'DELETE FROM notes WHERE user_id = 1' });
    expect(del.isError, resultText(del)).toBeFalsy();
    const count = await callChecked(conn, 'read_query', { query: 'SELECT count(*) FROM notes' });
    expect(count.structuredContent).toMatchObject({ rows: [[3]] });
  });
});

describe('mcp-demo prompt', () => {
  it('takes a topic and adapts to the mode', async () => {
    const { prompts } = await conn.client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => a.name)])).toEqual([['mcp-demo', ['topic']]]);
    const rw = await conn.client.getPrompt({ name: 'mcp-demo', arguments: { topic: 'bakery sales' } });
    const text = JSON.stringify(rw.messages[0]?.content);
    expect(text).toContain('bakery sales');
    expect(text).toContain('create_table');
    const ro = await modern.client.getPrompt({ name: 'mcp-demo', arguments: { topic: 'bakery sales' } });
    expect(JSON.stringify(ro.messages[0]?.content)).toContain('this server is read-only');
  });
});

/**
 * No temporary schema objects on the writer connection. A TEMP trigger, view, table or index lives
 * only on the connection that made it — here the one writer, which every write call shares — and is
 * invisible to read_query, list_tables and describe_table (other connections). A TEMP trigger would
 * silently act on later writes; a TEMP view or table would shadow the real table for them. So
 * write_query refuses them, however the temp schema is named, as create_table always refused TEMP
 * tables; and after every write the writer's temp schema is emptied, whatever slipped through.
 */
import { join } from 'node:path';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, structured, tempDir } from '@refmcp/test-harness';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTemporaryObjects } from '../src/engine/temp-schema.js';
import { FIXTURE_SQL, makeDb, startServer } from './support.js';

let cleanup: () => Promise<void>;
let rw: Connection;

beforeAll(async () => {
  let dir: string;
  ({ dir, cleanup } = await tempDir());
  const file = join(dir, 'rw.db');
  makeDb(file, FIXTURE_SQL);
  rw = await startServer(['--db-path', file, '--allow-writes']);
});
afterAll(async () => {
  await rw?.close();
  await cleanup();
});

const notes = async () => {
  const r = await callChecked(rw, 'read_query', { query: 'SELECT count(*) FROM notes' });
  return structured<{ rows: number[][] }>(r).rows[0]?.[0];
};

async function refused(tool: string, query: string): Promise<string> {
  const r = await callChecked(rw, tool, { query });
  expect(r.isError, `${tool} ${query}: ${resultText(r)}`).toBe(true);
  return resultText(r);
}

describe('temporary objects on the writer', () => {
  it('a TEMP trigger is refused, so a later INSERT cannot silently empty another table', async () => {
    const before = await notes();
    expect(before).toBe(3);
    expect(
      await refused(
        'write_query',
        'CREATE TEMP TRIGGER tt AFTER INSERT ON users BEGIN DELETE FROM notes; END',
      ),
    ).toMatch(/TEMP/);
    expect(
      await refused(
        'write_query',
        'create trigger "TEMP".tt2 after insert on users begin delete from notes; end',
      ),
    ).toMatch(/temp/i);
    const insert = await callChecked(rw, 'write_query', {
      query: 'INSERT INTO users (id, name) VALUES (?, ?)',
      params: [10, 'Cy'],
    });
    expect(insert.isError, resultText(insert)).toBeFalsy();
    expect(await notes()).toBe(before);
  });

  it('a TEMP view or table is refused, so the real table is not shadowed for later writes', async () => {
    for (const query of [
      'CREATE TEMP VIEW users AS SELECT 1 AS id, 2 AS name',
      'CREATE TEMPORARY TABLE users (id INTEGER PRIMARY KEY, name TEXT)',
      '/* x */ CREATE VIEW temp.users AS SELECT 1 AS id',
      "CREATE TABLE IF NOT EXISTS 'temp'.users (id)",
      'CREATE VIRTUAL TABLE [temp].users USING fts5(name)',
      'CREATE UNIQUE INDEX temp.users_id ON users(id)',
    ]) {
      expect(await refused('write_query', query)).toMatch(/temp/i);
    }
    const update = await callChecked(rw, 'write_query', {
      query: "UPDATE users SET name = 'Ann' WHERE id = 2",
    });
    expect(update.isError, resultText(update)).toBeFalsy();
    expect(structured(update)).toMatchObject({ changes: 1 });
  });

  it('create_table refuses a table in the temp schema however it is named', async () => {
    for (const query of [
      'CREATE TEMP TABLE x (a)',
      'CREATE TABLE temp.x (a)',
      'CREATE TABLE "temp"."x" (a)',
    ]) {
      expect(await refused('create_table', query)).toMatch(/temp/i);
    }
  });

  it('names that only look like temp, and the main schema, are fine', async () => {
    for (const query of [
      'CREATE TABLE temp_x (a)',
      'CREATE TABLE main."temp" (a)',
      'CREATE VIEW tempview AS SELECT 1',
    ]) {
      const r = await callChecked(rw, 'write_query', { query });
      expect(r.isError, `${query}: ${resultText(r)}`).toBeFalsy();
    }
  });
});

describe('dropTemporaryObjects (the backstop after every write)', () => {
  it('empties a connection’s temp schema: triggers stop firing, shadowing views and tables go', () => {
    const db = new Database(':memory:');
    try {
      db.exec(`CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
        INSERT INTO notes (body) VALUES ('a'), ('b');
        CREATE TEMP TRIGGER tt AFTER INSERT ON users BEGIN DELETE FROM notes; END;
        CREATE TEMP TABLE seq (id INTEGER PRIMARY KEY AUTOINCREMENT, "odd ""name""" TEXT);
        CREATE INDEX temp.seq_i ON seq ("odd ""name""");
        CREATE TEMP VIEW "users" AS SELECT 1 AS id;`);
      expect(dropTemporaryObjects(db).sort()).toEqual(['seq', 'tt', 'users']);
      expect(
        db.prepare("SELECT count(*) AS n FROM temp.sqlite_schema WHERE name NOT LIKE 'sqlite_%'").get(),
      ).toEqual({
        n: 0,
      });
      db.prepare('INSERT INTO users (name) VALUES (?)').run('x');
      expect(db.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 2 });
      expect(dropTemporaryObjects(db)).toEqual([]);
    } finally {
      db.close();
    }
  });
});

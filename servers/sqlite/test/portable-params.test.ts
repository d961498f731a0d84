// Issue 14: params and named_params in the advertised, union-free shapes (strings; {name, value}
// pairs) that LangChain's MCP adapter and OpenAI strict mode pass through unchanged.
import { join } from 'node:path';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, structured, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SQL, makeDb, startServer } from './support.js';

let cleanup: () => Promise<void>;
let rw: Connection;

beforeAll(async () => {
  let dir: string;
  ({ dir, cleanup } = await tempDir());
  const db = join(dir, 'rw.db');
  makeDb(db, FIXTURE_SQL);
  rw = await startServer(['--db-path', db, '--allow-writes']);
});
afterAll(async () => {
  await rw?.close();
  await cleanup();
});

describe('portable params', () => {
  it('advertises params as an array of strings and named_params as closed {name, value} pairs', async () => {
    const { tools } = await rw.client.listTools();
    const read = tools.find((t) => t.name === 'read_query');
    const props = read?.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.params).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(props.named_params).toMatchObject({
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, value: { type: 'string' } },
        required: ['name', 'value'],
        additionalProperties: false,
      },
    });
  });

  it('positional text values match integer columns by affinity; CAST and unhex say the rest', async () => {
    const byId = await callChecked(rw, 'read_query', {
      query: 'SELECT name FROM users WHERE id = ?',
      params: ['2'],
    });
    expect(structured(byId)).toMatchObject({ rows: [['Ann']] });
    await callChecked(rw, 'create_table', { query: 'CREATE TABLE p (v)' });
    const insert = await callChecked(rw, 'write_query', {
      query: "INSERT INTO p(v) VALUES (CAST(? AS INTEGER)), (unhex(?)), (NULLIF(?, ''))",
      params: ['9007199254740993', 'CAFE', ''],
    });
    expect(insert.isError, resultText(insert)).toBeFalsy();
    const stored = await callChecked(rw, 'read_query', {
      query: 'SELECT typeof(v), quote(v) FROM p ORDER BY rowid',
    });
    expect(structured(stored)).toMatchObject({
      rows: [
        ['integer', '9007199254740993'],
        ['blob', "X'CAFE'"],
        ['null', 'NULL'],
      ],
    });
  });

  it('named_params bind :name, @name and $name; with params too, or a repeated name, is an error', async () => {
    const named = await callChecked(rw, 'read_query', {
      query: 'SELECT id FROM users WHERE name = :n OR name = @m OR id = $i ORDER BY id',
      named_params: [
        { name: 'n', value: 'Ann' },
        { name: 'm', value: "O'Brien" },
        { name: 'i', value: '99' },
      ],
    });
    expect(structured(named)).toMatchObject({ rows: [[1], [2]] });
    const both = await callChecked(rw, 'read_query', {
      query: 'SELECT :a',
      params: ['1'],
      named_params: [{ name: 'a', value: '1' }],
    });
    expect(both.isError).toBe(true);
    expect(resultText(both)).toContain(
      'named_params: give params (for ?) or named_params (for :name), not both',
    );
    const twice = await callChecked(rw, 'explain_query', {
      query: 'SELECT :a',
      named_params: [
        { name: 'a', value: '1' },
        { name: 'a', value: '2' },
      ],
    });
    expect(twice.isError).toBe(true);
    expect(resultText(twice)).toContain('named_params: "a" given twice');
  });
});

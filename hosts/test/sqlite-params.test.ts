// Issue 14: SQLite's positional `params` and `named_params` both work through LangChain's MCP
// adapter, which validates each call against its simplified schema before it reaches the server
// (with 1.1.4 the old `params` union was reduced to `object`, so a positional call was refused).
import type { StructuredToolInterface } from '@langchain/core/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LangChainSession, langChainTools } from './clients.js';
import { type Launched, startLaunch } from './launches.js';

let started: Launched;
let session: LangChainSession;
const tool = (name: string): StructuredToolInterface => {
  const found = session.tools.find((t) => t.name === name);
  if (!found) throw new Error(`LangChain loaded no ${name}`);
  return found;
};
/** The rows of a read_query result as the adapter returns it (a text block with structuredContent). */
const rows = (result: unknown) =>
  (result as { structuredContent?: { rows?: unknown[][] } }).structuredContent?.rows;

beforeAll(async () => {
  started = await startLaunch('sqlite');
  session = await langChainTools('sqlite', started.launch);
  await tool('create_table').invoke({
    query: 'CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL)',
  });
  await tool('write_query').invoke({
    query: 'INSERT INTO users VALUES (?, ?), (?, ?)',
    params: ['1', 'Ann', '2', 'Bo'],
  });
});
afterAll(async () => {
  await session?.close();
  await started?.close();
});

describe('SQLite read_query through LangChain', () => {
  it('binds positional params', async () => {
    const result = await tool('read_query').invoke({
      query: 'SELECT name FROM users WHERE id = ?',
      params: ['2'],
    });
    expect(rows(result)).toEqual([['Bo']]);
  });

  it('binds numbered params', async () => {
    const result = await tool('read_query').invoke({
      query: 'SELECT ?2 || ?1, name FROM users WHERE id = ?1',
      params: ['1', 'x'],
    });
    expect(rows(result)).toEqual([['x1', 'Ann']]);
  });

  it('binds named_params', async () => {
    const result = await tool('read_query').invoke({
      query: 'SELECT id FROM users WHERE name = :name',
      named_params: [{ name: 'name', value: 'Ann' }],
    });
    expect(rows(result)).toEqual([[1]]);
  });

  it("refuses a bad argument in LangChain's own validation, before the server", async () => {
    await expect(tool('read_query').invoke({ query: 'SELECT 1', params: { a: '1' } })).rejects.toThrow(
      /did not match expected schema/,
    );
  });
});

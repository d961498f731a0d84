/**
 * Resource links in results (MCP "Tool Result": resource_link): list_tables and describe_table link
 * each table they name to its sqlite://schema/{table} resource, which the server then serves.
 */
import { join } from 'node:path';
import { type Connection, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDb, startServer } from './support.js';

let conn: Connection;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const t = await tempDir();
  cleanup = t.cleanup;
  const file = join(t.dir, 'links.db');
  makeDb(
    file,
    'CREATE TABLE "odd name" (x INTEGER); CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);',
  );
  conn = await startServer(['--db-path', file]);
});
afterAll(async () => {
  await conn?.close();
  await cleanup();
});

type Block = { type: string; uri?: string; name?: string; mimeType?: string };
const links = (r: { content: unknown }) => (r.content as Block[]).filter((b) => b.type === 'resource_link');

describe('table links', () => {
  it('list_tables links every table to its schema resource, which reads', async () => {
    const r = await conn.client.callTool({ name: 'list_tables', arguments: {} });
    expect(links(r)).toEqual([
      {
        type: 'resource_link',
        uri: 'sqlite://schema/odd%20name',
        name: 'odd name',
        title: 'Schema of odd name',
        mimeType: 'application/json',
      },
      {
        type: 'resource_link',
        uri: 'sqlite://schema/users',
        name: 'users',
        title: 'Schema of users',
        mimeType: 'application/json',
      },
    ]);
    const read = await conn.client.readResource({ uri: 'sqlite://schema/odd%20name' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ name: 'odd name' });
  });

  it('describe_table links the table it describes', async () => {
    const r = await conn.client.callTool({ name: 'describe_table', arguments: { table_name: 'users' } });
    expect(links(r).map((l) => l.uri)).toEqual(['sqlite://schema/users']);
    const read = await conn.client.readResource({ uri: 'sqlite://schema/users' });
    expect(read.contents[0]?.uri).toBe('sqlite://schema/users');
  });
});

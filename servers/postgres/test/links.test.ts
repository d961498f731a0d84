/**
 * Resource links in results (MCP "Tool Result": resource_link): list_tables and describe_table link
 * each table they name to its postgres://…/{schema}/{table}/schema resource, which the server serves.
 */
import type { Connection } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './support.js';

let conn: Connection;

beforeAll(async () => {
  conn = await startServer();
});
afterAll(async () => {
  await conn?.close();
});

type Block = { type: string; uri?: string; name?: string; mimeType?: string };
const links = (r: { content: unknown }) => (r.content as Block[]).filter((b) => b.type === 'resource_link');

describe('table links', () => {
  it('list_tables links each table to its schema resource, which reads', async () => {
    const r = await conn.client.callTool({ name: 'list_tables', arguments: { schema: 'sales' } });
    const names = (r.structuredContent as { tables: { name: string }[] }).tables.map(
      (t) => `sales.${t.name}`,
    );
    expect(names).toContain('sales.Mixed Case');
    expect(links(r).map((l) => l.name)).toEqual(names);
    const link = links(r).find((l) => l.name === 'sales.Mixed Case');
    expect(link).toMatchObject({ title: 'Schema of sales.Mixed Case', mimeType: 'application/json' });
    expect(link?.uri).toMatch(/^postgres:\/\/.*\/sales\/Mixed%20Case\/schema$/);
    const read = await conn.client.readResource({ uri: link?.uri ?? '' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({
      schema: 'sales',
      name: 'Mixed Case',
    });
  });

  it('describe_table links the table it describes', async () => {
    const r = await conn.client.callTool({
      name: 'describe_table',
      arguments: { schema: 'sales', table: 'Mixed Case' },
    });
    expect(links(r).map((l) => l.name)).toEqual(['sales.Mixed Case']);
  });
});

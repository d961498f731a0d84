/**
 * Schema insight: list_schemas, list_tables, describe_table, explain_query; the table-schema
 * resources (URIs with the database, never the user or password), completions, and the
 * query_schema prompt.
 */
import type { Connection } from '@refmcp/test-harness';
import { callChecked, followPages, resultText, structured } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from './global-setup.js';
import { asAdmin, db, startServer } from './support.js';

let conn: Connection;
beforeAll(async () => {
  conn = await startServer();
});
afterAll(() => conn.close());

type Listed<K extends string, T> = Record<K, T[]> & { nextCursor?: string };

async function allPages<K extends string, T>(
  tool: string,
  key: K,
  args: Record<string, unknown>,
): Promise<T[]> {
  const walk = await followPages(
    async (cursor) => {
      const r = await callChecked(conn, tool, { ...args, ...(cursor ? { cursor } : {}) });
      expect(r.isError, resultText(r)).toBeFalsy();
      return structured<Listed<K, T>>(r);
    },
    (page) => page.nextCursor,
  );
  return walk.pages.flatMap((p) => p[key]);
}

describe('list_schemas and list_tables', () => {
  it('lists user schemas (system ones on request), paged by cursor with no duplicates', async () => {
    const names = (await allPages<'schemas', { name: string }>('list_schemas', 'schemas', { limit: 1 })).map(
      (s) => s.name,
    );
    expect(names).toEqual(['public', 'sales']);
    const withSystem = await callChecked(conn, 'list_schemas', { includeSystem: true });
    expect(structured<Listed<'schemas', { name: string }>>(withSystem).schemas.map((s) => s.name)).toContain(
      'pg_catalog',
    );
    expect(resultText(withSystem)).toContain('sales (owner');
  });

  it('lists tables with kind, approximate rows and size; one schema or all, paged', async () => {
    const all = await allPages<
      'tables',
      { schema: string; name: string; kind: string; approx_rows: string | null; size: string }
    >('list_tables', 'tables', { limit: 2 });
    expect(all.map((t) => `${t.schema}.${t.name}`)).toEqual([
      'public.exact_types',
      'public.orders',
      'public.t',
      'public.users',
      'sales.Mixed Case',
      'sales.big_orders',
      'sales.invoices',
    ]);
    const users = all.find((t) => t.name === 'users');
    expect(users).toMatchObject({ kind: 'table', approx_rows: '100000' });
    expect(users?.size).toMatch(/MB|kB/);
    expect(all.find((t) => t.name === 'big_orders')?.kind).toBe('view');
    const sales = await callChecked(conn, 'list_tables', { schema: 'sales' });
    expect(structured<Listed<'tables', { name: string }>>(sales).tables.map((t) => t.name)).toEqual([
      'Mixed Case',
      'big_orders',
      'invoices',
    ]);
    const wrongCursor = await callChecked(conn, 'list_tables', {
      schema: 'public',
      cursor: structured<Listed<'tables', unknown>>(await callChecked(conn, 'list_tables', { limit: 1 }))
        .nextCursor,
    });
    expect(wrongCursor.isError).toBe(true);
    expect(resultText(wrongCursor)).toMatch(/^cursor: /);
  });
});

describe('describe_table', () => {
  it('columns, keys, constraints, indexes, comments and incoming foreign keys', async () => {
    const r = await callChecked(conn, 'describe_table', { table: 'users' });
    expect(r.isError, resultText(r)).toBeFalsy();
    const t = structured<Record<string, unknown> & { columns: Record<string, unknown>[] }>(r);
    expect(t).toMatchObject({
      schema: 'public',
      name: 'users',
      kind: 'table',
      comment: 'People who can sign in',
      primaryKey: ['id'],
    });
    expect(t.columns).toEqual([
      expect.objectContaining({ name: 'id', type: 'bigint', nullable: false }),
      expect.objectContaining({ name: 'name', type: 'text', nullable: false }),
      expect.objectContaining({
        name: 'email',
        type: 'text',
        nullable: true,
        comment: 'Login e-mail address',
      }),
      expect.objectContaining({ name: 'created_at', type: 'timestamp with time zone', default: 'now()' }),
    ]);
    expect(t.referencedBy).toEqual([expect.objectContaining({ table: 'orders', columns: ['user_id'] })]);
    expect(JSON.stringify(t.constraints)).toContain('UNIQUE (email)');
    expect(JSON.stringify(t.indexes)).toContain('users_pkey');
    expect(resultText(r)).toMatch(/id bigint \(not null, primary key\)/);
  });

  it('foreign keys, identity and checks; schema.table form; views with their definition', async () => {
    const orders = structured<Record<string, unknown> & { columns: Record<string, unknown>[] }>(
      await callChecked(conn, 'describe_table', { table: 'orders' }),
    );
    expect(orders.foreignKeys).toEqual([
      expect.objectContaining({ columns: ['user_id'], references: 'users', referencedColumns: ['id'] }),
    ]);
    expect(orders.columns[0]).toMatchObject({ name: 'id', identity: 'always' });
    expect(JSON.stringify(orders.constraints)).toContain('CHECK (total >= 0::numeric)');
    const view = structured<Record<string, unknown>>(
      await callChecked(conn, 'describe_table', { table: 'sales.big_orders' }),
    );
    expect(view).toMatchObject({ schema: 'sales', kind: 'view' });
    expect(String(view.viewDefinition)).toMatch(/total > 1000/);
    const mixed = await callChecked(conn, 'describe_table', { table: 'Mixed Case', schema: 'sales' });
    expect(mixed.isError, resultText(mixed)).toBeFalsy();
    const missing = await callChecked(conn, 'describe_table', { table: 'nope' });
    expect(missing.isError).toBe(true);
    expect(resultText(missing)).toMatch(/^table: no table or view named "nope".*list_tables/);
  });
});

describe('explain_query', () => {
  it('returns the JSON plan; analyze runs read-only and a write is refused before it is planned', async () => {
    const plan = await callChecked(conn, 'explain_query', {
      sql: 'SELECT * FROM users WHERE id = $1',
      params: [5],
    });
    expect(plan.isError, resultText(plan)).toBeFalsy();
    expect(resultText(plan)).toMatch(/^Index Scan on users/);
    const analyzed = await callChecked(conn, 'explain_query', {
      sql: 'SELECT count(*) FROM orders',
      analyze: true,
    });
    expect(resultText(analyzed)).toMatch(/execution [\d.]+ ms/);
    const write = await callChecked(conn, 'explain_query', { sql: 'DELETE FROM orders', analyze: true });
    expect(write.isError).toBe(true);
    // Planning it would take its ROW EXCLUSIVE lock: refused on a read-only server (read-only.test.ts).
    expect(resultText(write)).toMatch(/^refused before it reached the database: explaining DELETE/);
    const count = await asAdmin(async (c) => (await c.query('SELECT count(*) FROM orders')).rows[0].count);
    expect(count).toBe('500');
  });
});

describe('resources, completions, prompt', () => {
  it('lists table-schema resources whose URIs carry the database but not the user or password', async () => {
    const { resources } = await conn.client.listResources();
    const base = new URL(db().url);
    const users = resources.find((r) => r.name === 'public.users');
    expect(users?.uri).toBe(`postgres://${base.host}/${db().database}/public/users/schema`);
    for (const r of resources) {
      expect(r.uri).not.toContain(PASSWORD);
      expect(r.uri).not.toContain(db().role);
    }
    const read = await conn.client.readResource({ uri: users?.uri as string });
    const content = read.contents[0] as { text: string; mimeType: string };
    expect(content.mimeType).toBe('application/json');
    expect(JSON.parse(content.text)).toMatchObject({ name: 'users', primaryKey: ['id'] });
    const mixed = resources.find((r) => r.name === 'sales.Mixed Case');
    expect(mixed?.uri).toContain('/sales/Mixed%20Case/schema');
    const mixedRead = await conn.client.readResource({ uri: mixed?.uri as string });
    expect(JSON.parse((mixedRead.contents[0] as { text: string }).text)).toMatchObject({
      name: 'Mixed Case',
    });
    await expect(
      conn.client.readResource({ uri: `postgres://${base.host}/${db().database}/public/nope/schema` }),
    ).rejects.toThrow();
  });

  it('completes schema and table names', async () => {
    const { resourceTemplates } = await conn.client.listResourceTemplates();
    const uriTemplate = resourceTemplates[0]?.uriTemplate as string;
    const schemas = await conn.client.complete({
      ref: { type: 'ref/resource', uri: uriTemplate },
      argument: { name: 'schema', value: 'sa' },
    });
    expect(schemas.completion.values).toEqual(['sales']);
    const tables = await conn.client.complete({
      ref: { type: 'ref/resource', uri: uriTemplate },
      argument: { name: 'table', value: 'in' },
      context: { arguments: { schema: 'sales' } },
    });
    expect(tables.completion.values).toEqual(['invoices']);
    const promptArg = await conn.client.complete({
      ref: { type: 'ref/prompt', name: 'query_schema' },
      argument: { name: 'table_name', value: 'or' },
    });
    expect(promptArg.completion.values).toEqual(['orders']);
  });

  it('query_schema describes the table with example queries', async () => {
    const prompt = await conn.client.getPrompt({ name: 'query_schema', arguments: { table_name: 'orders' } });
    const text = String((prompt.messages[0]?.content as { text?: string } | undefined)?.text);
    expect(text).toContain('public.orders');
    expect(text).toContain('user_id bigint (not null)');
    expect(text).toContain('SELECT * FROM public.orders WHERE id = $1;');
    expect(text).toMatch(/JOIN users r ON t\.user_id = r\.id/);
  });
});

/**
 * The diagnose_slow_query prompt through the built server against the suite's PostgreSQL: listed
 * with its optional arguments, its table argument completing from the catalog (schema-qualified
 * outside public), its text naming the tools to use; arguments validated. Both protocol eras.
 * Listed only with the insight toolset, whose tools it names.
 */
import type { GetPromptResult } from '@modelcontextprotocol/client';
import type { Connection } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './support.js';

let legacy: Connection;
let modern: Connection;
beforeAll(async () => {
  // Generous: a loaded machine must not turn the catalog's answer into a cut-off.
  const env = { MCP_COMPLETION_TIMEOUT_MS: '60000' };
  const args = ['--toolsets', 'all'];
  [legacy, modern] = await Promise.all([
    startServer(args, { env }),
    startServer(args, { env, era: 'modern' }),
  ]);
});
afterAll(async () => {
  await Promise.all([legacy?.close(), modern?.close()]);
});

const text = (r: GetPromptResult) => (r.messages[0]?.content as { text?: string } | undefined)?.text ?? '';

it('is not listed with the default toolsets, which leave its insight tools off', async () => {
  const conn = await startServer([]);
  try {
    const { prompts } = await conn.client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('query_schema');
    expect(prompts.map((p) => p.name)).not.toContain('diagnose_slow_query');
  } finally {
    await conn.close();
  }
});

describe.each([
  ['legacy', () => legacy],
  ['modern', () => modern],
])('diagnose_slow_query (%s era)', (_era, conn) => {
  it('is listed with optional sql and table', async () => {
    const { prompts } = await conn().client.listPrompts();
    expect(prompts.find((p) => p.name === 'diagnose_slow_query')?.arguments).toEqual([
      expect.objectContaining({ name: 'sql', required: false }),
      expect.objectContaining({ name: 'table', required: false }),
    ]);
  });

  it('completes table names from the catalog', async () => {
    const complete = (value: string) =>
      conn().client.complete({
        ref: { type: 'ref/prompt', name: 'diagnose_slow_query' },
        argument: { name: 'table', value },
      });
    expect((await complete('or')).completion.values).toEqual(['orders']);
    expect((await complete('in')).completion.values).toEqual(['sales.invoices']);
    expect((await complete('no_such_table')).completion).toMatchObject({ values: [], hasMore: false });
    // sql is free text: nothing to complete.
    const sql = await conn().client.complete({
      ref: { type: 'ref/prompt', name: 'diagnose_slow_query' },
      argument: { name: 'sql', value: 'SEL' },
    });
    expect(sql.completion.values).toEqual([]);
  });

  it('names the tools to use, with or without a statement', async () => {
    const withSql = text(
      await conn().client.getPrompt({
        name: 'diagnose_slow_query',
        arguments: { sql: 'SELECT * FROM orders WHERE user_id = $1', table: 'orders' },
      }),
    );
    expect(withSql).toContain('SELECT * FROM orders WHERE user_id = $1');
    for (const tool of ['analyze_query', 'describe_table', 'index_advice']) expect(withSql).toContain(tool);
    const without = text(await conn().client.getPrompt({ name: 'diagnose_slow_query', arguments: {} }));
    expect(without).toContain('top_queries');
  });

  it('refuses an over-long table name (-32602)', async () => {
    await expect(
      conn().client.getPrompt({ name: 'diagnose_slow_query', arguments: { table: 'x'.repeat(300) } }),
    ).rejects.toThrow(/table/);
  });
});

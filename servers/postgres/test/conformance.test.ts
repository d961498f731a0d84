/**
 * The harness's conformance checks (cases ALL-01 … ALL-08) against the built PostgreSQL server
 * (writes enabled, so the execute tool is exercised too), the annotations of every tool, and the
 * README's generated tool table.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkServer, renderToolsTable, serverBin, withToolsTable } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from './global-setup.js';
import { db, startServer } from './support.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'refmcp-pg-conf-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('conformance (ALL-01 … ALL-08)', () => {
  it('passes every harness check', async () => {
    const bin = serverBin('postgres');
    const auditLog = join(dir, 'audit.log');
    expect(db().url).toContain(PASSWORD); // ALL-03: the connection-string password is the secret
    const report = await checkServer(
      {
        command: bin.command,
        args: [
          ...bin.args,
          db().url,
          '--allow-writes',
          '--statement-timeout',
          '4000',
          '--audit-log',
          auditLog,
        ],
      },
      {
        secrets: [PASSWORD],
        auditLog,
        slowCall: { name: 'query', arguments: { sql: 'SELECT pg_sleep(30)' } },
      },
    );
    const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.id}: ${c.details.join('; ')}`);
    expect(failed).toEqual([]);
    expect(report.checks.filter((c) => c.skipped).map((c) => c.id)).toEqual([]);
  }, 180_000);
});

/** Every tool's four hints, stated here on purpose: a changed hint must be a deliberate change. */
const EXPECTED_HINTS: Record<string, [readOnly: boolean, destructive: boolean, idempotent: boolean]> = {
  query: [true, false, true],
  list_schemas: [true, false, true],
  list_tables: [true, false, true],
  describe_table: [true, false, true],
  explain_query: [true, false, true],
  execute: [false, true, false],
};

describe('tools', () => {
  it('with --allow-writes: every tool with the intended annotations', async () => {
    const conn = await startServer(['--allow-writes']);
    try {
      const { tools } = await conn.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(EXPECTED_HINTS).sort());
      for (const tool of tools) {
        const [readOnlyHint, destructiveHint, idempotentHint] = EXPECTED_HINTS[tool.name] ?? [];
        expect({ tool: tool.name, ...tool.annotations }).toMatchObject({
          tool: tool.name,
          readOnlyHint,
          destructiveHint,
          idempotentHint,
          openWorldHint: false,
        });
      }
    } finally {
      await conn.close();
    }
  });

  it('--read-only wins over --allow-writes: no execute tool, descriptions say read-only', async () => {
    const conn = await startServer(['--allow-writes', '--read-only']);
    try {
      const { tools } = await conn.client.listTools();
      expect(tools.map((t) => t.name)).not.toContain('execute');
      for (const t of tools) expect(t.description, t.name).toMatch(/read-only/i);
      for (const t of tools) expect(t.description, t.name).not.toMatch(/writes enabled/i);
    } finally {
      await conn.close();
    }
  });

  it('README tool table is generated from the definitions and current (UPDATE_README=1 rewrites it)', async () => {
    const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));
    const conn = await startServer(['--allow-writes']);
    try {
      const { tools } = await conn.client.listTools();
      const readme = await readFile(readmePath, 'utf8');
      const current = withToolsTable(readme, renderToolsTable(tools));
      if (process.env.UPDATE_README === '1') await writeFile(readmePath, current);
      expect(
        readme,
        'README tool table is stale: run UPDATE_README=1 pnpm --filter @refmcp/server-postgres test',
      ).toBe(current);
    } finally {
      await conn.close();
    }
  });
});

/**
 * The harness's conformance checks (cases ALL-01 … ALL-08) against the built SQLite server with
 * writes allowed (so every tool is exercised), the annotations of every tool, and the README's
 * generated tool table.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkServer, renderToolsTable, withToolsTable } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SQL, makeDb, serverTarget, startServer, tempDir } from './support.js';

let dir: string;
let cleanup: () => Promise<void>;
let file: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  file = join(dir, 'conformance.db');
  makeDb(file, FIXTURE_SQL);
});
afterAll(() => cleanup());

describe('conformance (ALL-01 … ALL-08)', () => {
  it('passes every harness check', async () => {
    const auditLog = join(dir, 'audit.log');
    const report = await checkServer(
      {
        ...serverTarget([
          '--db-path',
          file,
          '--allow-writes',
          '--statement-timeout',
          '2500',
          '--audit-log',
          auditLog,
        ]),
        // ALL-03: a credential in the environment (hosts pass theirs along) must never be echoed.
        env: { GITHUB_TOKEN: 'TESTTOKEN123' },
      },
      {
        secrets: ['TESTTOKEN123'],
        auditLog,
        // ALL-04/ALL-07: a statement that never ends on its own (one endless SQLite step).
        slowCall: {
          name: 'read_query',
          arguments: {
            query: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
          },
        },
      },
    );
    const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.id}: ${c.details.join('; ')}`);
    expect(failed).toEqual([]);
    expect(report.checks.filter((c) => c.skipped).map((c) => c.id)).toEqual([]);
    const timeouts = report.checks.find((c) => c.id === 'ALL-07')?.details.join(' ') ?? '';
    expect(timeouts).toContain('timed out after 2500 ms (--statement-timeout 2500)');
  }, 120_000);
});

/** Every tool's hints, stated here on purpose: a changed hint must be a deliberate change. */
const EXPECTED_HINTS: Record<string, [readOnly: boolean, destructive: boolean, idempotent: boolean]> = {
  read_query: [true, false, true],
  explain_query: [true, false, true],
  list_tables: [true, false, true],
  describe_table: [true, false, true],
  append_insight: [false, false, false],
  write_query: [false, true, false],
  create_table: [false, false, false],
};

describe('tools', () => {
  it('with --allow-writes: the reference six plus explain_query, each with the intended annotations', async () => {
    const conn = await startServer(['--db-path', file, '--allow-writes']);
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

  it('README tool table is generated from the definitions and current (UPDATE_README=1 rewrites it)', async () => {
    const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));
    const conn = await startServer(['--db-path', file, '--allow-writes']);
    try {
      const { tools } = await conn.client.listTools();
      const readme = await readFile(readmePath, 'utf8');
      const current = withToolsTable(readme, renderToolsTable(tools));
      if (process.env.UPDATE_README === '1') await writeFile(readmePath, current);
      expect(
        readme,
        'README tool table is stale: run UPDATE_README=1 pnpm --filter @refmcp/server-sqlite test',
      ).toBe(current);
    } finally {
      await conn.close();
    }
  });
});

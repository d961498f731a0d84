/**
 * The harness's conformance checks (cases ALL-01 … ALL-08) against the built filesystem server,
 * the annotation of every tool, and the README's generated tool table.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkServer, renderToolsTable, serverBin, withToolsTable } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, tempDir } from './support.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeFile(join(dir, 'a.txt'), 'alpha\nbeta\n');
  // A line that makes a backtracking regex run until the search's time budget stops it.
  await writeFile(join(dir, 'slow.txt'), `${'a'.repeat(40)}!\n`.repeat(50));
});
afterAll(() => cleanup());

describe('conformance (ALL-01 … ALL-08)', () => {
  it('passes every harness check', async () => {
    const bin = serverBin('filesystem');
    const auditLog = join(dir, 'audit.log');
    const report = await checkServer(
      {
        command: bin.command,
        args: [...bin.args, dir, '--audit-log', auditLog],
        // ALL-03: a credential in the environment (hosts pass theirs along) must never be echoed.
        env: { GITHUB_TOKEN: 'TESTTOKEN123' },
      },
      {
        secrets: ['TESTTOKEN123'],
        auditLog,
        slowCall: { name: 'search_file_contents', arguments: { path: dir, pattern: '(a+)+$', regex: true } },
      },
    );
    const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.id}: ${c.details.join('; ')}`);
    expect(failed).toEqual([]);
    expect(report.checks.filter((c) => c.skipped).map((c) => c.id)).toEqual([]);
  }, 180_000);
});

/** Every tool's four hints, stated here on purpose: a changed hint must be a deliberate change. */
const EXPECTED_HINTS: Record<string, [readOnly: boolean, destructive: boolean, idempotent: boolean]> = {
  read_text_file: [true, false, true],
  read_file: [true, false, true],
  read_media_file: [true, false, true],
  read_multiple_files: [true, false, true],
  get_file_info: [true, false, true],
  list_allowed_directories: [true, false, true],
  list_directory: [true, false, true],
  list_directory_with_sizes: [true, false, true],
  directory_tree: [true, false, true],
  search_files: [true, false, true],
  search_file_contents: [true, false, true],
  write_file: [false, true, true],
  edit_file: [false, true, false],
  create_directory: [false, false, true],
  move_file: [false, true, false],
};

describe('tools', () => {
  it('lists the official 14 tools plus search_file_contents, each with the intended annotations', async () => {
    const conn = await startServer([dir]);
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

  it('--read-only serves only the read-only tools', async () => {
    const conn = await startServer([dir, '--read-only']);
    try {
      const { tools } = await conn.client.listTools();
      const expected = Object.entries(EXPECTED_HINTS).filter(([, [readOnly]]) => readOnly);
      expect(tools.map((t) => t.name).sort()).toEqual(expected.map(([name]) => name).sort());
    } finally {
      await conn.close();
    }
  });

  it('README tool table is generated from the definitions and current (UPDATE_README=1 rewrites it)', async () => {
    const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));
    const conn = await startServer([dir]);
    try {
      const { tools } = await conn.client.listTools();
      const readme = await readFile(readmePath, 'utf8');
      const current = withToolsTable(readme, renderToolsTable(tools));
      if (process.env.UPDATE_README === '1') await writeFile(readmePath, current);
      expect(
        readme,
        'README tool table is stale: run UPDATE_README=1 pnpm --filter @refmcp/server-filesystem test',
      ).toBe(current);
    } finally {
      await conn.close();
    }
  });
});

describe('audit log', () => {
  it('records every call, including those refused before a tool runs', async () => {
    const auditLog = join(dir, 'every-call.log');
    const conn = await startServer([dir, '--read-only', '--audit-log', auditLog]);
    try {
      await conn.client.callTool({ name: 'read_text_file', arguments: { path: join(dir, 'a.txt') } });
      await conn.client.callTool({ name: 'read_text_file', arguments: { path: 5, extra: 1 } });
      await expect(
        conn.client.callTool({ name: 'write_file', arguments: { path: 'x', content: 'y' } }),
      ).rejects.toThrow(/write_file/);
    } finally {
      await conn.close();
    }
    const lines = (await readFile(auditLog, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.tool, l.outcome])).toEqual([
      ['read_text_file', 'ok'],
      ['read_text_file', 'error'],
      ['write_file', 'error'],
    ]);
    expect(lines[1].error).toMatch(/path/);
    expect(lines[2].error).toMatch(/not found/);
  });
});

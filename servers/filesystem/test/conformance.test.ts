/**
 * The harness's conformance suite against the built filesystem server: checks ALL-01 … ALL-08,
 * tool snapshots, read-only selection, the README's generated tool table; and the audit log.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeConformance } from '@refmcp/test-harness/conformance';
import { describe, expect, it } from 'vitest';
import { startServer } from './support.js';

const ctx = describeConformance({
  server: 'filesystem',
  testFile: import.meta.url,
  setup: async ({ dir }) => {
    await writeFile(join(dir, 'a.txt'), 'alpha\nbeta\n');
    // A line that makes a backtracking regex run until the search's time budget stops it.
    await writeFile(join(dir, 'slow.txt'), `${'a'.repeat(40)}!\n`.repeat(50));
  },
  args: ({ dir }) => [dir],
  // The checks may call delete_file: its trash goes under the test's directory, not the user's home.
  env: ({ dir }) => ({ XDG_DATA_HOME: join(dir, '.xdg-data') }),
  check: ({ dir }) => ({
    // ALL-03: a credential in the environment (hosts pass theirs along) must never be echoed.
    env: { GITHUB_TOKEN: 'TESTTOKEN123' },
    secrets: ['TESTTOKEN123'],
    slowCall: { name: 'search_file_contents', arguments: { path: dir, pattern: '(a+)+$', regex: true } },
  }),
  readOnly: ['--read-only'],
  timeoutMs: 180_000,
});

describe('audit log', () => {
  it('records every call, including those refused before a tool runs', async () => {
    const { dir } = ctx;
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

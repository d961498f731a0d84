/**
 * The harness's conformance suite against the built SQLite server with writes allowed (so every
 * tool is exercised): checks ALL-01 … ALL-08, tool snapshots, the README's generated tool table.
 */
import { join } from 'node:path';
import { describeConformance } from '@refmcp/test-harness/conformance';
import { expect } from 'vitest';
import { FIXTURE_SQL, makeDb } from './support.js';

describeConformance({
  server: 'sqlite',
  testFile: import.meta.url,
  setup: ({ dir }) => makeDb(join(dir, 'conformance.db'), FIXTURE_SQL),
  args: ({ dir }) => ['--db-path', join(dir, 'conformance.db')],
  allTools: ['--allow-writes'],
  check: () => ({
    args: ['--statement-timeout', '2500'],
    // ALL-03: a credential in the environment (hosts pass theirs along) must never be echoed.
    env: { GITHUB_TOKEN: 'TESTTOKEN123' },
    secrets: ['TESTTOKEN123'],
    // ALL-04/ALL-07: a statement that never ends on its own (one endless SQLite step).
    slowCall: {
      name: 'read_query',
      arguments: {
        query: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
      },
    },
  }),
  timeoutMs: 120_000,
  expectReport: (report) => {
    const timeouts = report.checks.find((c) => c.id === 'ALL-07')?.details.join(' ') ?? '';
    expect(timeouts).toContain('timed out after 2500 ms (--statement-timeout 2500)');
  },
});

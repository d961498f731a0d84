/**
 * The harness's conformance suite against the built browser server with a real Chromium: checks
 * ALL-01 … ALL-08, tool snapshots, read-only selection, the README's generated tool table.
 */
import { join } from 'node:path';
import { describeConformance } from '@refmcp/test-harness/conformance';

describeConformance({
  server: 'browser',
  testFile: import.meta.url,
  allTools: ['--enable-evaluate'],
  check: ({ dir }) => ({
    args: ['--output-dir', join(dir, 'out'), '--upload-dir', dir],
    // ALL-03: a credential in the environment (hosts pass theirs along) must never be echoed,
    // nor reach the browser's environment.
    env: { GITHUB_TOKEN: 'TESTTOKEN123', MCP_BROWSER_PROXY_PASSWORD: 'TESTTOKEN123' },
    secrets: ['TESTTOKEN123'],
    // A pure time wait (it starts no browser): ALL-04 closes stdin meanwhile, ALL-07 calls
    // tools/list meanwhile. Exit with a running browser is tested in isolation.test.ts.
    slowCall: { name: 'browser_wait_for', arguments: { time: 5 } },
    callTimeoutMs: 30_000,
  }),
  readOnly: ['--read-only'],
});

/**
 * The harness's conformance suite against the built search server and the fake Brave (plan not
 * enforced, so the checks' many calls are not paced): ALL-01 … ALL-10, META and PORT, tool
 * snapshots (each with its toolset), the README's generated tool table; and toolset selection
 * with the reference's two tools by default.
 */
import { describeConformance } from '@refmcp/test-harness/conformance';
import type { FakeBrave } from '@refmcp/test-harness/fakes/brave';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLSETS } from '../src/toolsets.js';
import { BRAVE_KEY, braveEnv, startBrave, startServer } from './support.js';

let brave: FakeBrave;
beforeAll(async () => {
  brave = await startBrave();
  brave.setPlan({ perSecond: 1000, enforce: false });
  // The slow call: a web search for "slow" answers after 2.5 s.
  brave.api.latency(2500, (req) => req.query.get('q') === 'slow');
});
afterAll(() => brave.close());

describeConformance({
  server: 'search',
  testFile: import.meta.url,
  env: () => braveEnv(brave),
  allTools: ['--toolsets', 'all'],
  toolsets: TOOLSETS.map((t) => t.name),
  check: () => ({
    secrets: [BRAVE_KEY],
    slowCall: { name: 'brave_web_search', arguments: { query: 'slow' } },
  }),
});

/** The reference server's 2 tools (@modelcontextprotocol/server-brave-search 0.6.2). */
const PARITY = ['brave_web_search', 'brave_local_search'];

// Every tool is read-only, so the shared selection cases (which need a write tool) do not apply;
// these check the defaults and the switches the README names.
describe('tool selection', () => {
  it("serves the reference's two tools by default, and every tool is read-only", async () => {
    const conn = await startServer(brave);
    try {
      const tools = await conn.tools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(PARITY));
      expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    } finally {
      await conn.close();
    }
  });

  it('fetch_url is served by default and --exclude-tools fetch_url removes it', async () => {
    const all = await startServer(brave);
    const without = await startServer(brave, ['--exclude-tools', 'fetch_url']);
    try {
      expect((await all.tools()).map((t) => t.name)).toContain('fetch_url');
      const names = (await without.tools()).map((t) => t.name);
      expect(names).not.toContain('fetch_url');
      expect(names).toContain('brave_web_search');
    } finally {
      await all.close();
      await without.close();
    }
  });

  it('--toolsets search serves web and local search only; --exclude-tools removes one', async () => {
    const only = await startServer(brave, ['--toolsets', 'search', '--exclude-tools', 'brave_local_search']);
    try {
      expect((await only.tools()).map((t) => t.name)).toEqual(['brave_web_search']);
    } finally {
      await only.close();
    }
  });
});

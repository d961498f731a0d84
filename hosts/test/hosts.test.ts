// Issue 14, with the real clients rather than our re-implementations of their rules (the harness's
// PORT check): every tool of every built server loads unchanged through LangChain's MCP adapter,
// converts to an OpenAI strict function schema in the OpenAI Agents SDK (no fallback to a
// non-strict tool), and gets no finding from the MCP Inspector's --strict schema lint.
import { fileURLToPath } from 'node:url';
import type { Tool } from '@modelcontextprotocol/client';
import { readToolSnapshots } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectorStrict, langChainTools, openAiStrictTools } from './clients.js';
import { type Launch, type Launched, SERVERS, startLaunch } from './launches.js';

const UNPORTABLE: Launch = {
  command: process.execPath,
  args: [fileURLToPath(new URL('./fixtures/unportable-server.mjs', import.meta.url))],
  env: {},
};

describe('each client notices the shapes issue 14 found (a fixture server)', () => {
  it("LangChain's adapter reduces anyOf[array, object] to an object", async () => {
    const session = await langChainTools('unportable', UNPORTABLE);
    try {
      const schema = session.tools[0]?.schema as { properties: Record<string, Record<string, unknown>> };
      expect(schema.properties.params).toEqual({ type: 'object' });
    } finally {
      await session.close();
    }
  });

  it('the OpenAI Agents SDK falls back to a non-strict tool for an open object', async () => {
    const [tool] = await openAiStrictTools('unportable', UNPORTABLE);
    expect(tool).toMatchObject({ name: 'read_query', strict: false });
  });

  it('Inspector --strict warns on the type array', async () => {
    const verdict = await inspectorStrict('unportable', UNPORTABLE);
    expect(verdict.toolNames).toEqual(['read_query']);
    expect(verdict.findings).toContain('read_query: inputSchema.properties.cursor: type-union (warning)');
  });
});

describe.each(SERVERS)('%s', (server) => {
  let started: Launched;
  let snapshots: Map<string, Tool>;
  beforeAll(async () => {
    started = await startLaunch(server);
    const dir = new URL(`../../servers/${server}/test/__toolsnaps__/`, import.meta.url);
    snapshots = new Map([...(await readToolSnapshots(dir))].map(([name, s]) => [name, s.tool]));
    expect(snapshots.size, 'committed tool snapshots').toBeGreaterThan(0);
  });
  afterAll(() => started?.close());

  it("LangChain's adapter loads every tool with its inputSchema unchanged", async () => {
    const session = await langChainTools(server, started.launch);
    try {
      expect(session.tools.map((t) => t.name).sort()).toEqual([...snapshots.keys()].sort());
      for (const tool of session.tools)
        expect(tool.schema, tool.name).toEqual(snapshots.get(tool.name)?.inputSchema);
    } finally {
      await session.close();
    }
  });

  it('the OpenAI Agents SDK converts every tool to a strict function schema', async () => {
    const tools = await openAiStrictTools(server, started.launch);
    expect(tools.map((t) => t.name).sort()).toEqual([...snapshots.keys()].sort());
    expect(tools.filter((t) => !t.strict).map((t) => t.name)).toEqual([]);
    for (const tool of tools)
      expect(tool.parameters, tool.name).toMatchObject({ additionalProperties: false });
  });

  it('Inspector --strict reports no finding', async () => {
    const verdict = await inspectorStrict(server, started.launch);
    expect(verdict.toolNames.sort()).toEqual([...snapshots.keys()].sort());
    expect(verdict.findings).toEqual([]);
    expect(verdict.exitCode, verdict.stderr).toBe(0);
  });
});

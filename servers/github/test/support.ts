/**
 * Shared helpers of the GitHub server's stdio tests: a seeded fake GitHub on 127.0.0.1, the built
 * server connected to it over stdio (GITHUB_API_URL pointing at the fake; no test reaches
 * github.com), and tool calls whose structuredContent is checked against the tool's outputSchema.
 */
import { existsSync } from 'node:fs';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { validateJson } from '@refmcp/shared/json-schema';
import { type Connection, connect, type Era, resultText, serverBin } from '@refmcp/test-harness';
import { type FakeGitHub, SCENE_TOKEN, seedScene, startFakeGitHub } from '@refmcp/test-harness/fakes/github';

export { resultText, SCENE_TOKEN };

/** A fake GitHub with the standard scene. */
export async function startScene(): Promise<{ gh: FakeGitHub; scene: ReturnType<typeof seedScene> }> {
  const gh = await startFakeGitHub();
  return { gh, scene: seedScene(gh) };
}

/** Flags that switch off client-side pacing so tests do not wait a second per write. */
export const NO_PACING = ['--write-interval', '0', '--search-interval', '0'];

/** Spawns the built server against `gh` with `args`; `env` overrides (e.g. no token). */
export async function startServer(
  gh: FakeGitHub,
  args: string[] = [],
  opts: { env?: Record<string, string>; era?: Era; pacing?: boolean } = {},
): Promise<Connection & { tools: () => Promise<Tool[]> }> {
  const bin = serverBin('github');
  const entry = bin.args[0] ?? '';
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build the server first (pnpm run build)`);
  const conn = await connect({
    command: bin.command,
    args: [...bin.args, ...(opts.pacing ? [] : NO_PACING), ...args],
    env: { GITHUB_API_URL: gh.url, GITHUB_PERSONAL_ACCESS_TOKEN: SCENE_TOKEN, ...opts.env },
    era: opts.era ?? 'legacy',
  });
  let tools: Tool[] | undefined;
  return Object.assign(conn, {
    tools: async () => {
      tools ??= (await conn.client.listTools()).tools;
      return tools;
    },
  });
}

/**
 * Calls a tool (a JSON-RPC error rejects). A successful result's structuredContent must validate
 * against the tool's outputSchema — what a host checks.
 */
export async function call(
  conn: Connection & { tools: () => Promise<Tool[]> },
  name: string,
  args: Record<string, unknown>,
  timeout = 30_000,
): Promise<CallToolResult & { text: string }> {
  const result = (await conn.client.request(
    { method: 'tools/call', params: { name, arguments: args } },
    { timeout },
  )) as CallToolResult;
  if (!result.isError) {
    const tool = (await conn.tools()).find((t) => t.name === name);
    if (tool?.outputSchema) {
      if (!result.structuredContent)
        throw new Error(`${name}: no structuredContent although an outputSchema is declared`);
      const problems = validateJson(tool.outputSchema as Record<string, unknown>, result.structuredContent);
      if (problems.length)
        throw new Error(`${name}: structuredContent does not match outputSchema: ${problems.join('; ')}`);
    }
  }
  return Object.assign(result, { text: resultText(result) });
}

/** The structuredContent of a result, typed loosely for assertions. */
export function data<T = Record<string, unknown>>(result: CallToolResult): T {
  return result.structuredContent as T;
}

/** Shared helpers of the stdio tests: the built server connected over stdio, tool calls, an admin client. */
import { existsSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { type Connection, connect, type Era, resultText, serverBin } from '@refmcp/test-harness';
import pg from 'pg';
import { inject } from 'vitest';

export { resultText };

/** The suite's database (see global-setup.ts). */
export const db = () => inject('pg');

/** Spawns the built server with `args` (the test database URL first unless `url: false`). */
export async function startServer(
  args: string[] = [],
  opts: { url?: string | false; env?: Record<string, string>; era?: Era } = {},
): Promise<Connection> {
  const bin = serverBin('postgres');
  const entry = bin.args[0] ?? '';
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build the server first (pnpm run build)`);
  const url = opts.url === false ? [] : [opts.url ?? db().url];
  return connect({
    command: bin.command,
    args: [...bin.args, ...url, ...args],
    env: opts.env ?? {},
    era: opts.era ?? 'legacy',
  });
}

/** Calls a tool and returns its result (a JSON-RPC error rejects). */
export async function call(
  conn: Connection,
  name: string,
  args: Record<string, unknown>,
  timeout = 20_000,
): Promise<CallToolResult> {
  return (await conn.client.request(
    { method: 'tools/call', params: { name, arguments: args } },
    { timeout },
  )) as CallToolResult;
}

/** The structured content of a result, typed loosely for assertions. */
export function data<T = Record<string, unknown>>(result: CallToolResult): T {
  return result.structuredContent as T;
}

/** Runs `fn` with a superuser client on the test database (assertions and setup). */
export async function asAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: db().adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

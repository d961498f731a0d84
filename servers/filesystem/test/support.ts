/** Shared helpers of the stdio tests: a temp workspace, the built server connected over stdio, tool calls. */
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { type Connection, connect, type Era, resultText, serverBin } from '@refmcp/test-harness';

export { resultText };

/** A fresh directory under the OS temp dir (real path, so assertions need no symlink juggling). */
export async function tempDir(prefix = 'refmcp-fs-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Spawns the built filesystem server (dist/index.js) with `args` (allowed dirs, options) over stdio. */
export async function startServer(args: string[], era: Era = 'legacy'): Promise<Connection> {
  const bin = serverBin('filesystem');
  const entry = bin.args[0] ?? '';
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build the server first (pnpm run build)`);
  return connect({ command: bin.command, args: [...bin.args, ...args], era });
}

/** Calls a tool and returns its result (a JSON-RPC error rejects). */
export async function call(
  conn: Connection,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await conn.client.request(
    { method: 'tools/call', params: { name, arguments: args } },
    { timeout: 20_000 },
  )) as CallToolResult;
}

/** Peak resident set size of a live process in bytes (Linux /proc VmHWM), or undefined elsewhere. */
export async function peakRssBytes(pid: number): Promise<number | undefined> {
  const { readFile } = await import('node:fs/promises');
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

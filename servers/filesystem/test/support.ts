/** Shared helpers of the stdio tests: a temp workspace, the built server connected over stdio, tool calls. */
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult, ListToolsResult } from '@modelcontextprotocol/client';
import { validateJson } from '@refmcp/shared/json-schema';
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

/** Numeric id of the `nobody` user and group (Debian's), which unprivileged servers run as when tests run as root. */
export const NOBODY = 65534;

/**
 * The built server as an unprivileged user, for checks of file permissions (root may write and search
 * everything): as root it runs as nobody through util-linux `setpriv`; otherwise as the current user.
 */
export async function startUnprivileged(args: string[]): Promise<Connection> {
  if (process.getuid?.() !== 0) return startServer(args);
  const bin = serverBin('filesystem');
  return connect({
    command: 'setpriv',
    args: [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', bin.command, ...bin.args, ...args],
  });
}

/** Each connection's tools' output schemas, as listed (fetched on the first call). */
const outputSchemas = new WeakMap<Connection, Promise<Map<string, Record<string, unknown>>>>();

function listedOutputSchemas(conn: Connection): Promise<Map<string, Record<string, unknown>>> {
  let schemas = outputSchemas.get(conn);
  if (!schemas) {
    schemas = (async () => {
      const listed = (await conn.client.request({ method: 'tools/list', params: {} })) as ListToolsResult;
      return new Map(listed.tools.flatMap((t) => (t.outputSchema ? [[t.name, t.outputSchema]] : [])));
    })();
    outputSchemas.set(conn, schemas);
  }
  return schemas;
}

/**
 * Calls a tool and returns its result (a JSON-RPC error rejects). A successful result of a tool with an
 * outputSchema must carry structuredContent valid against the listed schema: the server does not re-validate
 * its own results (they are built by typed handlers), so every stdio test checks them here.
 */
export async function call(
  conn: Connection,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const result = (await conn.client.request(
    { method: 'tools/call', params: { name, arguments: args } },
    { timeout: 20_000 },
  )) as CallToolResult;
  const schema = result.isError ? undefined : (await listedOutputSchemas(conn)).get(name);
  if (schema) {
    if (result.structuredContent === undefined) throw new Error(`${name}: no structuredContent`);
    const problems = validateJson(schema, result.structuredContent);
    if (problems.length > 0)
      throw new Error(`${name}: structuredContent does not match its outputSchema: ${problems.join('; ')}`);
  }
  return result;
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

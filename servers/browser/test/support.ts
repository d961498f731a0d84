/**
 * Shared helpers of the stdio tests: the built server connected over stdio (real Chromium), tool
 * calls, and a tiny HTTP server on 127.0.0.1 serving the test's pages.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { type Connection, connect, type Era, resultText, serverBin } from '@refmcp/test-harness';

export { resultText };

/** A fresh directory under the OS temp dir (real path). */
export async function tempDir(
  prefix = 'refmcp-browser-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Spawns the built browser server (dist/index.js) with `args` over stdio. */
export async function startServer(
  args: string[],
  opts: { era?: Era; env?: Record<string, string> } = {},
): Promise<Connection> {
  const bin = serverBin('browser');
  const entry = bin.args[0] ?? '';
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build the server first (pnpm run build)`);
  return connect({
    command: bin.command,
    args: [...bin.args, ...args],
    era: opts.era ?? 'legacy',
    ...(opts.env ? { env: opts.env } : {}),
  });
}

/** Calls a tool and returns its result (a JSON-RPC error rejects). */
export async function call(
  conn: Connection,
  name: string,
  args: Record<string, unknown> = {},
  timeout = 60_000,
): Promise<CallToolResult> {
  return (await conn.client.request(
    { method: 'tools/call', params: { name, arguments: args } },
    { timeout },
  )) as CallToolResult;
}

/** Calls a tool and returns its text, failing the test if the result is an error. */
export async function ok(
  conn: Connection,
  name: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const result = await call(conn, name, args);
  const text = resultText(result);
  if (result.isError)
    throw new Error(`${name} ${JSON.stringify(args).slice(0, 200)} → isError: ${text.slice(0, 500)}`);
  return text;
}

export type Route = string | ((req: http.IncomingMessage, res: http.ServerResponse) => void);

/** A page server on 127.0.0.1: `routes` maps paths to HTML or handlers; `hits` counts requests per path. */
export async function servePages(routes: Record<string, Route>): Promise<{
  base: string;
  origin: string;
  port: number;
  hits: Map<string, number>;
  close: () => Promise<void>;
}> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (typeof route === 'function') {
      route(req, res);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(route);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Pids of the Chromium processes below `pid` whose command line contains `needle`. */
export async function browserPids(pid: number, needle = ''): Promise<number[]> {
  const { descendantPids } = await import('@refmcp/test-harness');
  const { readFileSync } = await import('node:fs');
  return descendantPids(pid).filter((child) => {
    try {
      const cmd = readFileSync(`/proc/${child}/cmdline`, 'utf8');
      return /chrom/i.test(cmd) && cmd.includes(needle);
    } catch {
      return false;
    }
  });
}

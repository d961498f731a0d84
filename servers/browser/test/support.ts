/**
 * The browser server's own test fixtures: its launch (real Chromium), a tiny HTTP server on
 * 127.0.0.1 serving the test's pages, and the Chromium processes below a server.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { descendantPids, type Era, startBuiltServer } from '@refmcp/test-harness';

/** Spawns the built browser server with `args` over stdio. */
export const startServer = (args: string[], opts: { era?: Era; env?: Record<string, string> } = {}) =>
  startBuiltServer('browser', args, opts);

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
  return descendantPids(pid).filter((child) => {
    try {
      const cmd = readFileSync(`/proc/${child}/cmdline`, 'utf8');
      return /chrom/i.test(cmd) && cmd.includes(needle);
    } catch {
      return false;
    }
  });
}

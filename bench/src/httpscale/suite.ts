/**
 * The HTTP scale-out suite (`--only httpscale`, issue 19): calls per second over Streamable HTTP at
 * 1, 10 and 100 concurrent clients, each client doing one `brave_web_search` tools/call after
 * another, against the harness's fake Brave on 127.0.0.1 (plan not enforced; no network):
 *   H1 ours, one instance — 2026-07-28 stateless clients, straight to the instance
 *   H2 ours, two instances behind nginx (docs/deploy/nginx.conf, round-robin) — same clients
 * each side by side with @brave/brave-search-mcp-server 2.1.4 (`--transport http`, one instance,
 * 2025-11-25 session clients: its SDK 1.x transport has no 2026-07-28 era), pointed at the same
 * fake by the fetch-redirect preload. Ours paces Brave per process from its X-RateLimit headers;
 * the fake announces 100 000 a second, so the spacing (~0.01 ms) hardly limits these rows.
 * Figures are successful calls / wall second of the timed calls (after a warm-up); a failed call
 * (e.g. 503 over an instance's 64-request cap) is counted, not retried, and reported in the notes.
 */
import { spawn } from 'node:child_process';
import { connectHttp, freePort, type HttpServer, startHttpServer, startNginx } from '@refmcp/test-harness';
import { BRAVE_KEY, type FakeBrave, startFakeBrave, webResult } from '@refmcp/test-harness/fakes/brave';
import { fetchRedirectPreload, locateApiServers } from '../api-servers.js';
import { errorText, now } from '../measure.js';
import { type Row, row } from '../report.js';
import type { Context, WorkloadResult } from '../workloads/common.js';

const QUERY = 'model context protocol over http';
const LEVELS = [1, 10, 100] as const;

type Client = Awaited<ReturnType<typeof connectHttp>>['client'];

/** Timed calls per level and side (warm-up: one per client, at least 20). */
const callsAt = (quick: boolean) => (quick ? 60 : 200);

interface Rate {
  callsPerSec: number;
  failures: number;
  firstFailure?: string;
}

/** One tools/call; a failure text or undefined. */
async function call(client: Client): Promise<string | undefined> {
  try {
    const r = await client.callTool({ name: 'brave_web_search', arguments: { query: QUERY, count: 3 } });
    return r.isError ? `isError: ${JSON.stringify(r.content).slice(0, 200)}` : undefined;
  } catch (error) {
    return errorText(error);
  }
}

/**
 * `clients` connected clients (each opened by `open`), `warmup` untimed then `calls` timed
 * tools/calls shared among them, one outstanding per client. Closes them. Errors: a failed connect.
 */
async function rate(open: () => Promise<Client>, clients: number, calls: number): Promise<Rate> {
  const opened = await Promise.all(Array.from({ length: clients }, open));
  try {
    const run = async (n: number) => {
      let next = 0;
      let failures = 0;
      let firstFailure: string | undefined;
      await Promise.all(
        opened.map(async (c) => {
          while (next < n) {
            next++;
            const failure = await call(c);
            if (failure) {
              failures++;
              firstFailure ??= failure;
            }
          }
        }),
      );
      return { failures, firstFailure };
    };
    await run(Math.max(clients, 20));
    const t0 = now();
    const timed = await run(calls);
    const seconds = (now() - t0) / 1000;
    return { callsPerSec: (calls - timed.failures) / seconds, ...timed };
  } finally {
    await Promise.all(opened.map((c) => c.close().catch(() => {})));
  }
}

/** The official server on `--transport http`, up once it prints its URL on stdout. */
async function startOfficialHttp(bin: string, preload: string) {
  const port = await freePort();
  const proc = spawn(
    process.execPath,
    ['--import', preload, bin, '--transport', 'http', '--port', String(port), '--host', '127.0.0.1'],
    {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', BRAVE_API_KEY: BRAVE_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  proc.stderr?.on('data', (d) => {
    out += d;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`official: no URL printed; output: ${out}`)), 15_000);
    proc.stdout?.on('data', (d) => {
      out += d;
      if (out.includes(`127.0.0.1:${port}/mcp`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`official exited ${code}: ${out}`));
    });
  });
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const gone = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await gone;
    },
  };
}

export async function runHttpScaleSuite(ctx: Context): Promise<WorkloadResult> {
  const brave: FakeBrave = await startFakeBrave();
  brave.setPlan({ perSecond: 100_000, enforce: false });
  brave.scene.web.set(
    QUERY,
    Array.from({ length: 3 }, (_, i) =>
      webResult(`MCP over HTTP, part ${i + 1}`, `https://example.com/${i}`, 'Streamable HTTP'),
    ),
  );
  const rows: Row[] = [];
  const notes: string[] = [];
  const servers = locateApiServers('search', '@brave/brave-search-mcp-server', 'dist/index.js');
  const quick = ctx.sizes.calls < 1000;
  const started: { stop(): Promise<void> }[] = [];
  try {
    const env = { BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: brave.apiUrl };
    const [a, b]: HttpServer[] = await Promise.all([
      startHttpServer('search', [], { env }),
      startHttpServer('search', [], { env }),
    ]);
    if (!a || !b) throw new Error('search: instances did not start');
    started.push(a, b);
    const nginx = await startNginx([a.url, b.url]);
    started.push(nginx);
    const preload = fetchRedirectPreload(
      ctx.dataRoot,
      'brave-redirect.mjs',
      'https://api.search.brave.com/res/v1',
      brave.apiUrl,
    );
    const official = servers.official.missing
      ? undefined
      : await startOfficialHttp(servers.official.bin, preload);
    if (official) started.push(official);
    const modern = (url: URL) => async () => (await connectHttp(url, 'modern')).client;
    const legacy = (url: URL) => async () => (await connectHttp(url, 'legacy')).client;
    for (const clients of LEVELS) {
      const calls = callsAt(quick);
      ctx.log(`httpscale: ${clients} client(s), ${calls} calls each way`);
      const measure = async (label: string, open: () => Promise<Client>) => {
        try {
          const r = await rate(open, clients, calls);
          if (r.failures)
            notes.push(
              `httpscale ${label}, ${clients} clients: ${r.failures}/${calls} calls failed; first: ${r.firstFailure}`,
            );
          return { value: r.callsPerSec };
        } catch (error) {
          return { error: errorText(error) };
        }
      };
      const off = official
        ? await measure('official', legacy(official.url))
        : { error: servers.official.missing ?? 'missing' };
      const one = await measure('ours 1 instance', modern(a.url));
      const two = await measure('ours 2 instances behind nginx', modern(nginx.url));
      const name = (what: string) =>
        `search over HTTP, ${clients} concurrent client${clients > 1 ? 's' : ''}: ${what} vs Brave 2.x (1 instance, sessions)`;
      rows.push(
        row({
          id: 'H1',
          name: name('ours 1 instance'),
          unit: 'calls/s',
          better: 'higher',
          ours: one,
          official: off,
        }),
        row({
          id: 'H2',
          name: name('ours 2 instances behind nginx'),
          unit: 'calls/s',
          better: 'higher',
          ours: two,
          official: off,
        }),
      );
    }
    notes.push(
      'httpscale: ours paces Brave per process and key from its X-RateLimit headers: one request every 1000/limit ms plus a margin of min(50 ms, a tenth of that) (shared/src/upstream/windows.ts), ~0.011 ms at the fake Brave plan of 100 000/s; the official does not pace. Over 64 requests waiting in one instance, it answers 503 (server busy)',
      `httpscale: ours ${servers.ours.label} with 2026-07-28 stateless clients; official ${servers.official.label} with 2025-11-25 session clients; every call brave_web_search (3 results) against the fake Brave on 127.0.0.1`,
    );
  } finally {
    for (const s of started.reverse()) await s.stop().catch(() => {});
    await brave.close();
  }
  return { rows, notes };
}

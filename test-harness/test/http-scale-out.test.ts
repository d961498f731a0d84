/**
 * Scale-out for real (issue 19): two HTTP instances of the built search server, against the fake
 * Brave on 127.0.0.1, behind a real nginx running the README's example config
 * (docs/deploy/nginx.conf). A stateless 2026-07-28 client's calls are spread over both instances;
 * one instance is SIGKILLed mid-run and every call still succeeds (nginx passes refused connects
 * to the other instance; the client retries a call that failed in flight), with the right answer.
 * A 2025-11-25 session client works through the same nginx, pinned to one instance.
 */
import { BRAVE_KEY, type FakeBrave, startFakeBrave, webResult } from '@refmcp/test-harness/fakes/brave';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, type HttpServer, httpLogLines, startHttpServer } from '../src/http.js';
import { type NginxService, nginxConfigFor, startNginx } from '../src/services/nginx.js';

const TOKEN = 'scale-out-test-token-0123456789abcdef';

let brave: FakeBrave;
let a: HttpServer;
let b: HttpServer;
let nginx: NginxService;

const start = () =>
  startHttpServer('search', [], {
    env: { BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: brave.apiUrl, MCP_HTTP_TOKEN: TOKEN },
  });

/** POSTs to /mcp each instance logged (one JSON line per request on its stderr). */
const posts = (s: HttpServer) =>
  httpLogLines(s.stderr()).filter((l) => l.method === 'POST' && l.path === '/mcp').length;

/** The query of call `i` and the one result the fake answers it with. */
const query = (i: number) => `scale out query ${i}`;
const title = (i: number) => `Answer number ${i} for the scale-out test`;

beforeAll(async () => {
  brave = await startFakeBrave();
  brave.setPlan({ perSecond: 1000, enforce: false });
  for (let i = 0; i < 200; i++)
    brave.scene.web.set(query(i), [webResult(title(i), `https://example.com/${i}`, `result ${i}`)]);
  [a, b] = await Promise.all([start(), start()]);
  nginx = await startNginx([a.url, b.url]);
}, 30_000);

afterAll(async () => {
  await nginx?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
  await brave?.close();
});

type Client = Awaited<ReturnType<typeof connectHttp>>['client'];

/** One brave_web_search call's text; throws on an error result. */
async function search(client: Client, i: number): Promise<string> {
  const result = await client.callTool({
    name: 'brave_web_search',
    arguments: { query: query(i), count: 1 },
  });
  const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');
  if (result.isError) throw new Error(`call ${i}: ${text}`);
  return text;
}

/** `search`, retried (at most 3 attempts) when an attempt fails: what a host does on a 502. */
async function searchWithRetry(client: Client, i: number, failures: string[]): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await search(client, i);
    } catch (error) {
      if (attempt === 3) throw error;
      failures.push(
        `call ${i} attempt ${attempt}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

describe('nginx in front of two stateless instances (docs/deploy/nginx.conf)', () => {
  it('the example config is what runs: only listen and the upstream server lines differ', () => {
    const rewritten = nginxConfigFor(
      'upstream u {\n    server 127.0.0.1:3001 max_fails=1;\n    server 127.0.0.1:3002 max_fails=1;\n    keepalive 8;\n}\nserver {\n    listen 127.0.0.1:8080;\n}\n',
      9000,
      [
        new URL('http://127.0.0.1:7001/mcp'),
        new URL('http://127.0.0.1:7002/mcp'),
        new URL('http://127.0.0.1:7003/mcp'),
      ],
    );
    expect(rewritten).toBe(
      'upstream u {\n    server 127.0.0.1:7001 max_fails=1;\n    server 127.0.0.1:7002 max_fails=1;\n    server 127.0.0.1:7003 max_fails=1;\n    keepalive 8;\n}\nserver {\n    listen 127.0.0.1:9000;\n}\n',
    );
    expect(nginx.config).toContain('proxy_buffering off;');
    expect(nginx.config).toContain(`server 127.0.0.1:${a.url.port} `);
    expect(nginx.config).toContain(`server 127.0.0.1:${b.url.port} `);
  });

  it('without the token nginx passes the instances’ 401 through', async () => {
    const res = await fetch(nginx.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('a 2026-07-28 client’s calls land on both instances, then survive a SIGKILL of one', async () => {
    const { client } = await connectHttp(nginx.url, 'modern', TOKEN);
    try {
      const [a0, b0] = [posts(a), posts(b)];
      // Round-robin: 40 calls, every one correct, spread over both instances.
      for (let i = 0; i < 40; i++) expect(await search(client, i)).toContain(title(i));
      // An instance logs a request when its response has closed, which can trail the client's read.
      await expect.poll(() => posts(a) - a0 + posts(b) - b0).toBeGreaterThanOrEqual(40);
      const [onA, onB] = [posts(a) - a0, posts(b) - b0];
      expect(onA).toBeGreaterThanOrEqual(15);
      expect(onB).toBeGreaterThanOrEqual(15);
      expect(onA + onB).toBeGreaterThanOrEqual(40);

      // 120 more calls, 8 in flight; instance b is SIGKILLed once 30 of them have answered.
      const failures: string[] = [];
      const answers: string[] = [];
      let done = 0;
      let next = 40;
      const bExited = new Promise((r) => b.proc.once('exit', r));
      const worker = async () => {
        while (next < 160) {
          const i = next++;
          answers[i] = await searchWithRetry(client, i, failures);
          if (++done === 30) b.proc.kill('SIGKILL');
        }
      };
      const aBeforeKill = posts(a);
      await Promise.all(Array.from({ length: 8 }, worker));
      await bExited;
      for (let i = 40; i < 160; i++) expect(answers[i], `call ${i}`).toContain(title(i));
      // After the kill, a carried the rest: at least the ~90 calls left when b died.
      expect(posts(a) - aBeforeKill).toBeGreaterThanOrEqual(85);
      // Calls in flight on b when it died fail once (nginx does not resend a POST that reached
      // an instance: docs/deploy/nginx.conf) and succeed on retry; none is lost.
      expect(failures.length).toBeLessThanOrEqual(8);
      for (const f of failures) expect(f).toMatch(/50[234]|fetch failed|terminated|socket|Streamable HTTP/i);
      // With b gone, new calls never reach it: nginx skips the refused upstream on its own.
      const quiet: string[] = [];
      for (let i = 160; i < 170; i++) expect(await searchWithRetry(client, i, quiet)).toContain(title(i));
      expect(quiet).toEqual([]);
    } finally {
      await client.close();
    }
  }, 45_000);

  it('a 2025-11-25 session client works through the same nginx, pinned to one instance', async () => {
    // b is dead (previous test); restart it so both instances are up again behind the same nginx.
    const b2 = await start();
    const n2 = await startNginx([a.url, b2.url]);
    try {
      const sessionPosts = () => [posts(a), posts(b2)];
      const before = sessionPosts();
      const { client, transport } = await connectHttp(n2.url, 'legacy', TOKEN);
      try {
        expect(transport.sessionId).toBeTruthy();
        for (let i = 0; i < 10; i++) expect(await search(client, i)).toContain(title(i));
      } finally {
        await transport.terminateSession();
        await client.close();
      }
      const after = sessionPosts();
      const grew = [(after[0] ?? 0) - (before[0] ?? 0), (after[1] ?? 0) - (before[1] ?? 0)];
      // initialize + initialized + 10 calls on one instance, nothing on the other.
      expect(Math.max(...grew)).toBeGreaterThanOrEqual(12);
      expect(Math.min(...grew)).toBe(0);
    } finally {
      await n2.stop();
      await b2.stop();
    }
  }, 30_000);
});

/**
 * The network policy through the built server and real Chromium (cases BR-01, BR-02, BR-06). The
 * test serves an allowed site and a "forbidden" one on 127.0.0.1; the forbidden one counts every
 * request it gets, so "refused" means the request never arrived, not just an error message.
 */
import { readFileSync } from 'node:fs';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, callOk, resultText } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserPids, servePages, startServer } from './support.js';

type Site = Awaited<ReturnType<typeof servePages>>;
let site: Site;
let forbidden: Site;
let conn: Connection;

beforeAll(async () => {
  forbidden = await servePages({
    '/secret': '<p>SECRET-PAGE</p>',
    '/pixel.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(),
    '/api': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"secret":1}'),
  });
  site = await servePages({
    '/': '<title>Allowed</title><h1>Allowed page</h1>',
    '/redirect': (_req, res) => res.writeHead(302, { location: `${forbidden.base}/secret` }).end(),
    '/redirect-metadata': (_req, res) =>
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    '/subresources': `<title>Subresources</title><h1>Subresources</h1>
      <img src="${forbidden.base}/pixel.png"><iframe src="${forbidden.base}/secret"></iframe>
      <script>fetch('${forbidden.base}/api').catch(() => console.log('fetch blocked'));
      fetch('http://localhost:${forbidden.port}/api').catch(() => {});</script>`,
    '/frames': `<title>Frames</title><h1>Frames</h1><iframe src="FILE:///etc/passwd"></iframe>
      <iframe src="chrome://settings"></iframe><a href="file:///etc/passwd">passwd</a>`,
  });
  conn = await startServer(['--allowed-origins', site.origin, '--enable-evaluate']);
}, 60_000);

afterAll(async () => {
  await conn?.close();
  await site?.close();
  await forbidden?.close();
});

describe('BR-01 SSRF defaults', () => {
  it('BR-01 refuses the metadata endpoint by default, naming the rule', async () => {
    const result = await callChecked(conn, 'browser_navigate', {
      url: 'http://169.254.169.254/latest/meta-data/',
    });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/rule: metadata/);
  });

  it('BR-01 allows the origin the operator allowed, refuses loopback on any other port or name', async () => {
    expect(await callOk(conn, 'browser_navigate', { url: `${site.base}/` })).toMatch(/Allowed page/);
    for (const url of [
      `${forbidden.base}/secret`,
      `http://localhost:${forbidden.port}/secret`,
      `http://2130706433:${forbidden.port}/secret`,
    ]) {
      const result = await callChecked(conn, 'browser_navigate', { url });
      expect(result.isError, url).toBe(true);
      expect(resultText(result)).toMatch(/rule: loopback/);
    }
    expect(forbidden.hits.get('/secret') ?? 0).toBe(0);
  });

  it('BR-01 checks every redirect hop', async () => {
    const toLoopback = await callChecked(conn, 'browser_navigate', { url: `${site.base}/redirect` });
    expect(toLoopback.isError).toBe(true);
    expect(resultText(toLoopback)).toMatch(/rule: loopback.*redirect hop 1/s);
    const toMetadata = await callChecked(conn, 'browser_navigate', { url: `${site.base}/redirect-metadata` });
    expect(toMetadata.isError).toBe(true);
    expect(resultText(toMetadata)).toMatch(/rule: metadata/);
    expect(forbidden.hits.get('/secret') ?? 0).toBe(0);
  });

  it('BR-01 checks subresources, frames and fetches of an allowed page', async () => {
    const text = await callOk(conn, 'browser_navigate', { url: `${site.base}/subresources` });
    expect(text).toMatch(/Requests of the page refused by the network policy \(\d+\):[\s\S]*rule: loopback/);
    expect(text).not.toContain('SECRET-PAGE');
    await callOk(conn, 'browser_wait_for', { time: 0.5 });
    const requests = await callOk(conn, 'browser_network_requests', { static: true });
    expect(requests).toMatch(/pixel\.png → REFUSED by the network policy \(rule: loopback\)/);
    expect(requests).toMatch(/\/api → REFUSED by the network policy \(rule: loopback\)/);
    expect([...forbidden.hits.values()].reduce((a, b) => a + b, 0)).toBe(0);
  });
});

describe('BR-02 local schemes', () => {
  it.each([
    'file:///etc/passwd',
    'FILE:///etc/passwd',
    'chrome://settings',
    'Chrome://version',
    'view-source:http://127.0.0.1/',
    'javascript:alert(1)',
  ])('BR-02 refuses %s', async (url) => {
    const result = await callChecked(conn, 'browser_navigate', { url });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/rule: scheme/);
    expect(resultText(result)).toMatch(/Only the operator can change this \(--allowed-schemes\)/);
  });

  it('BR-02 frames and links of a page cannot show local files', async () => {
    await callOk(conn, 'browser_navigate', { url: `${site.base}/frames` });
    await callChecked(conn, 'browser_click', { target: 'a', snapshot: 'none' });
    const snapshot = await callOk(conn, 'browser_snapshot');
    const text = await callOk(conn, 'browser_get_text');
    for (const out of [snapshot, text]) expect(out).not.toMatch(/root:x:0:0/);
    expect(await callOk(conn, 'browser_tabs', { action: 'list' })).not.toMatch(/file:/i);
  });
});

describe('BR-06 no self-unlocking', () => {
  it('BR-06 tool arguments cannot carry launch options, binary, sandbox or policy settings', async () => {
    for (const extra of [
      { executablePath: '/bin/sh' },
      { args: ['--no-sandbox'] },
      { allowedOrigins: '*' },
      { proxy: 'http://x' },
    ]) {
      const result = await callChecked(conn, 'browser_navigate', {
        url: 'http://169.254.169.254/',
        ...extra,
      });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain(Object.keys(extra)[0] ?? '');
    }
    const { tools } = await conn.client.listTools();
    for (const tool of tools) {
      const props = Object.keys((tool.inputSchema as { properties?: object }).properties ?? {});
      expect(
        props.filter((p) => /exec|sandbox|launch|proxy|origin|policy|scheme|headless|args/i.test(p)),
        tool.name,
      ).toEqual([]);
    }
  });

  it('BR-06 the browser is launched with the operator flags: proxy, no loopback bypass, headless', async () => {
    const [pid] = await browserPids(conn.pid, '--proxy-server');
    expect(pid).toBeDefined();
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline.some((a) => /^--proxy-server=http:\/\/127\.0\.0\.1:\d+$/.test(a))).toBe(true);
    expect(cmdline).toContain('--proxy-bypass-list=<-loopback>');
    expect(cmdline.some((a) => a.startsWith('--headless'))).toBe(true);
    expect(cmdline.some((a) => a.startsWith('--remote-debugging-port'))).toBe(false);
  });

  it('the effective --disable-features (Chromium honours only the last) keeps every feature Playwright disables, plus RenderDocument; the Playwright patches are in place', async () => {
    await callOk(conn, 'browser_navigate', { url: `${site.base}/` });
    const [pid] = await browserPids(conn.pid, '--proxy-server');
    const lists = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((a) => a.startsWith('--disable-features='))
      .map((a) => a.slice('--disable-features='.length).split(','));
    const effective = lists[lists.length - 1] ?? [];
    for (const list of lists) expect(effective).toEqual(expect.arrayContaining(list));
    expect(effective).toContain('RenderDocument');
    expect(effective).toContain('PaintHolding');
    // The pinned playwright-core takes the patches (src/browser/playwright-patches.ts).
    expect(conn.stderr()).not.toMatch(/could not patch playwright-core/);
  });

  it('BR-06 browser_evaluate is off unless enabled, and its requests obey the policy', async () => {
    const plain = await startServer([]);
    try {
      const { tools } = await plain.client.listTools();
      expect(tools.map((t) => t.name)).not.toContain('browser_evaluate');
    } finally {
      await plain.close();
    }
    await callOk(conn, 'browser_navigate', { url: `${site.base}/` });
    const fetched = await callOk(conn, 'browser_evaluate', {
      function: `() => fetch('${forbidden.base}/api').then(r => 'status ' + r.status, e => 'failed: ' + e.message)`,
    });
    expect(fetched).toMatch(/status 403|failed/);
    const nav = await callOk(conn, 'browser_evaluate', {
      function: "() => { location.href = 'http://169.254.169.254/latest/meta-data/'; return 'ok'; }",
    });
    expect(nav).toMatch(/ok/);
    await callOk(conn, 'browser_wait_for', { time: 0.5 });
    expect(await callOk(conn, 'browser_get_text')).not.toMatch(/ami-id|meta-data\/\n/);
    expect(forbidden.hits.get('/api') ?? 0).toBe(0);
    const requests = await callOk(conn, 'browser_network_requests');
    expect(requests).toMatch(/169\.254\.169\.254.*REFUSED.*rule: metadata/);
  });
});

/** BR-04: a page with 200k DOM nodes never crashes the server; snapshots are capped with a marker. */
import type { Connection } from '@refmcp/test-harness';
import { callChecked, callOk, resultText } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePages, startServer } from './support.js';

let site: Awaited<ReturnType<typeof servePages>>;
let conn: Connection;

// 20 000 rows × (row + 4 cells + link + text span) ≈ 200k elements, built by the page itself.
const HUGE = `<title>Huge</title><h1>Huge table</h1><button id="top" onclick="this.textContent='clicked'">Top button</button>
<table id="t"></table><script>
const t = document.getElementById('t'); const f = document.createDocumentFragment();
for (let i = 0; i < 20000; i++) { const tr = document.createElement('tr');
  for (let j = 0; j < 4; j++) { const td = document.createElement('td'); td.textContent = 'r' + i + 'c' + j; tr.appendChild(td); }
  const td = document.createElement('td'); const a = document.createElement('a'); a.href = '#r' + i; const s = document.createElement('span');
  s.textContent = 'row ' + i; a.appendChild(s); td.appendChild(a); tr.appendChild(td);
  const pad = document.createElement('td'); pad.appendChild(document.createElement('i')); pad.appendChild(document.createElement('b')); tr.appendChild(pad);
  f.appendChild(tr); }
t.appendChild(f);</script>`;

beforeAll(async () => {
  const hostile = (script: string) =>
    `<title>Hostile</title><script>${script}</script><button>Press</button>`;
  site = await servePages({
    '/': HUGE,
    '/small': '<title>Small</title><button>ok</button>',
    // Busy right after DOMContentLoaded, as a huge page is while it lays out, for longer than a
    // page line waits for a title at all (5 s, tools/context.ts): only the browser's copy names it.
    '/busy': `<title>Busy</title><script>document.addEventListener('DOMContentLoaded', () =>
      setTimeout(() => { const end = Date.now() + 7000; while (Date.now() < end); }, 0));</script><p>busy</p>`,
    // Pages that tamper with what the element-limit check reads (it runs in an isolated world).
    '/huge-claims-small': `<script>Document.prototype.getElementsByTagName = () => ({ length: 1 });</script>${HUGE}`,
    '/claims-huge': hostile('Document.prototype.getElementsByTagName = () => ({ length: 1e9 });'),
    '/new-every-time': hostile(
      "Object.defineProperty(performance, 'timeOrigin', { get: () => Math.random() });",
    ),
    '/throwing-performance': hostile(
      "Object.defineProperty(window, 'performance', { get() { throw new Error('nope'); } });",
    ),
  });
  conn = await startServer(['--allowed-origins', site.origin, '--max-snapshot-bytes', '20000']);
});

afterAll(async () => {
  await conn?.close();
  await site?.close();
});

describe('BR-04 huge pages', () => {
  it('BR-04 200k nodes: capped snapshot with a truncation marker, no crash, actions without snapshot', async () => {
    const nav = await callChecked(conn, 'browser_navigate', { url: `${site.base}/`, snapshot: 'none' });
    expect(nav.isError).toBeFalsy();
    const snapshot = await callOk(conn, 'browser_snapshot');
    expect(Buffer.byteLength(snapshot)).toBeLessThan(25_000);
    expect(snapshot).toMatch(/\[truncated: the page has (\d{6}) elements/);
    expect(Number(/the page has (\d+) elements/.exec(snapshot)?.[1])).toBeGreaterThanOrEqual(200_000);
    expect(snapshot).toContain('button "Top button" #top');
    const click = await callOk(conn, 'browser_click', { target: '#top', snapshot: 'none' });
    expect(click).toMatch(/^Clicked #top\.\nPage: .*"Huge"$/);
    const text = await callOk(conn, 'browser_get_text', { target: '#top' });
    expect(text).toContain('clicked');
    // The server is alive and still answers with full snapshots on normal pages.
    expect(await callOk(conn, 'browser_navigate', { url: `${site.base}/small` })).toMatch(
      /button "ok" \[ref=(f\d+)?e\d+\]/,
    );
    expect(conn.exitStatus()).toBeUndefined();
  }, 120_000);

  it('BR-04 the page line names a page too busy to answer document.title (the browser keeps its own copy)', async () => {
    // The title was read from the page with a one-second cap, so a page still busy (a huge one
    // laying out, on a loaded machine) lost it; the browser process has it as soon as it is parsed.
    // The page here never answers in time, so the title can only be the browser's copy.
    const nav = await callOk(conn, 'browser_navigate', { url: `${site.base}/busy`, snapshot: 'none' });
    expect(nav).toMatch(/\nPage: \S+\/busy — "Busy"$/);
  }, 60_000);

  it('BR-04 a page cannot fake its element count or break snapshots through the globals the check reads', async () => {
    const huge = await callOk(conn, 'browser_navigate', {
      url: `${site.base}/huge-claims-small`,
      snapshot: 'none',
    });
    expect(huge).toMatch(/Huge/);
    expect(await callOk(conn, 'browser_snapshot')).toMatch(/\[truncated: the page has \d{6} elements/);
    for (const path of ['/claims-huge', '/new-every-time', '/throwing-performance']) {
      const page = await callOk(conn, 'browser_navigate', { url: `${site.base}${path}` });
      expect(page, path).toMatch(/Page: .* — "Hostile"/);
      expect(page, path).toMatch(/button "Press" \[ref=(f\d+)?e\d+\]/);
      expect(await callOk(conn, 'browser_snapshot'), path).toMatch(/button "Press" \[ref=/);
    }
  }, 120_000);

  it('BR-04 a long snapshot is cut on line boundaries and continues from the offset; ALL-07 a hung navigation names its budget', async () => {
    const rows = Array.from({ length: 800 }, (_, i) => `<li><a href="#${i}">link number ${i}</a></li>`).join(
      '',
    );
    const local = await servePages({ '/': `<title>List</title><ul>${rows}</ul>`, '/hang': () => {} });
    const c = await startServer([
      '--allowed-origins',
      local.origin,
      '--max-snapshot-bytes',
      '5000',
      '--navigation-timeout',
      '1500',
    ]);
    try {
      const first = await callOk(c, 'browser_navigate', { url: `${local.base}/` });
      const offset = Number(/offset=(\d+)/.exec(first)?.[1]);
      expect(offset).toBeGreaterThan(20);
      const next = await callOk(c, 'browser_snapshot', { offset });
      expect(next).toMatch(/Snapshot from line \d+:/);
      expect(resultText(await callChecked(c, 'browser_snapshot', { offset: 10_000_000 }))).toMatch(
        /offset: .* past the end/,
      );
    } finally {
      await c.close();
      await local.close();
    }
  });
});

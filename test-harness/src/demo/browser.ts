/**
 * Demo scene: the browser server on pages the demo serves itself on 127.0.0.1 (allowed explicitly
 * by the host config) — snapshot, click through by ref, read the second page as Markdown, and a
 * refused navigation to the cloud metadata address.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DemoScene } from './scene.js';
import { bold } from './session.js';

const PAGES: Record<string, string> = {
  '/': `<!doctype html><title>Field notes</title><h1>Field notes</h1>
    <p>Weekly notes of the survey team.</p>
    <nav><a href="/report">Read the river report</a> · <a href="/archive">Archive</a></nav>
    <label>Search <input name="q"></label> <button>Go</button>`,
  '/report': `<!doctype html><title>River report</title><nav><a href="/">Home</a></nav>
    <article><h1>River report, week 12</h1>
    <p>The water level rose by 14 cm after the storm on Tuesday; the east bank gauge was reset on Thursday.
    Sediment samples from the three usual sites are on their way to the lab, results expected next week.</p>
    <h2>Next steps</h2><ul><li>Recalibrate the upstream gauge</li><li>Photograph the new gravel bar</li></ul>
    <p>Background: <a href="/methods">how we measure</a>.</p></article><footer>© survey team</footer>`,
};

let server: http.Server | undefined;

export const browserScene: DemoScene = {
  server: 'browser',
  needs: 'Chromium or Chrome installed (e.g. apt-get install chromium)',
  async prepare() {
    server = http.createServer((req, res) => {
      const page = PAGES[(req.url ?? '/').split('?')[0] ?? '/'];
      res
        .writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
        .end(page ?? 'not found');
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // The host config passes it as --allowed-origins: loopback is refused unless allowed.
    process.env.REFMCP_DEMO_BROWSER_ORIGIN = `http://127.0.0.1:${port}`;
  },
  async run(session) {
    const origin = process.env.REFMCP_DEMO_BROWSER_ORIGIN ?? '';
    console.log(`\n${bold('Task: open the field notes, follow the river report and summarise it.')}`);
    const home = await session.call(
      'browser_navigate',
      { url: `${origin}/` },
      'Open the page: the result is an accessibility snapshot with refs for what can be acted on.',
    );
    const text = home.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    const ref = /link "Read the river report" \[ref=([^\]]+)\]/.exec(text)?.[1];
    if (!ref) throw new Error('the demo expected a ref for the report link');
    await session.call('browser_click', { target: ref }, `Click the link by its ref (${ref}).`);
    await session.call(
      'browser_read_markdown',
      {},
      'Read the page as Markdown: the article only, links kept.',
    );
    await session.call(
      'browser_navigate',
      { url: 'http://169.254.169.254/latest/meta-data/' },
      'A page tries to send the browser to the cloud metadata address: refused by default.',
      true,
    );
  },
  async cleanup() {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  },
};

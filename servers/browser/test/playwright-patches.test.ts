/**
 * The Playwright patches (src/browser/playwright-patches.ts) against the pinned playwright-core and
 * real Chromium: every document gets the same injected-script source (so V8 compiles it once), and
 * refs still name their document.
 */
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../src/browser/discovery.js';
import { patchPlaywright, utilityWorld } from '../src/browser/playwright-patches.js';
import { RefRegistry } from '../src/browser/refs.js';
import { Tab } from '../src/browser/tab.js';
import { pageFacts } from '../src/snapshot/page-facts.js';
import { servePages } from './support.js';

let browser: Browser;
let site: Awaited<ReturnType<typeof servePages>>;

beforeAll(async () => {
  site = await servePages({
    '/a': '<title>A</title><button onclick="this.textContent=\'clicked\'">Press</button>',
    '/b': '<title>B</title><a href="/a">Back to A</a><button>Other</button>',
  });
  const executablePath = process.env.MCP_BROWSER_EXECUTABLE ?? findOnPath(process.env);
  browser = await chromium.launch({ executablePath, args: ['--disable-gpu'], chromiumSandbox: false });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('Playwright injected script', () => {
  it('is sent with one source for every document, and refs keep their document prefix', async () => {
    const page = await browser.newPage();
    expect(await patchPlaywright(page)).toBe('patched');
    expect(await patchPlaywright(page)).toBe('patched');
    // Chromium reports each script it compiles with a hash of its source.
    const cdp = await page.context().newCDPSession(page);
    const hashes: string[] = [];
    cdp.on('Debugger.scriptParsed', (script) => {
      if ((script.length ?? 0) > 100_000) hashes.push(script.hash);
    });
    await cdp.send('Debugger.enable');
    const refs: string[] = [];
    for (const path of ['/a', '/b', '/a']) {
      await page.goto(`${site.base}${path}`);
      const snapshot = await page.ariaSnapshot({ mode: 'ai' });
      const ref = /button "[^"]+" \[ref=([^\]]+)\]/.exec(snapshot)?.[1];
      expect(ref, snapshot).toBeDefined();
      refs.push(ref ?? '');
    }
    expect(hashes.length).toBeGreaterThanOrEqual(3);
    expect(new Set(hashes).size).toBe(1);
    // Each document names its refs differently (f<N>e<M>), as stock Playwright does.
    expect(new Set(refs.map((r) => /^(f\d+)?e/.exec(r)?.[1] ?? '')).size).toBe(3);
    await page.locator(`aria-ref=${refs[2]}`).click();
    expect(await page.locator('button').textContent()).toBe('clicked');
    expect(await page.locator(`aria-ref=${refs[0]}`).count()).toBe(0);
    await page.close();
  });

  it('numbers documents across pages: two tabs never issue the same ref for their elements', async () => {
    const [first, second] = [await browser.newPage(), await browser.newPage()];
    expect(await patchPlaywright(first)).toBe('patched');
    const refs: string[] = [];
    for (const page of [first, second]) {
      await page.goto(`${site.base}/a`);
      refs.push(/button "Press" \[ref=([^\]]+)\]/.exec(await page.ariaSnapshot({ mode: 'ai' }))?.[1] ?? '');
    }
    expect(refs[0]).toMatch(/^f\d+e\d+$/);
    expect(refs[1]).toMatch(/^f\d+e\d+$/);
    expect(refs[1]).not.toBe(refs[0]);
    expect(await second.locator(`aria-ref=${refs[1]}`).count()).toBe(1);
    expect(
      await second
        .locator(`aria-ref=${refs[0]}`)
        .count()
        .catch(() => 0),
    ).toBe(0);
    await first.close();
    await second.close();
  });

  it("page facts come from an isolated world, Playwright's or (with a Playwright out of reach) our own", async () => {
    const hostile = `<title>Hostile</title><p>one</p><p>two</p><script>
      Document.prototype.getElementsByTagName = () => ({ length: 1 });
      Object.defineProperty(performance, 'timeOrigin', { get: () => Math.random() });</script>`;
    const hooks = {
      onCrash: () => {},
      onClose: () => {},
      refusedRule: () => undefined,
      onDownload: async () => ({ line: '' }),
      onForbiddenFrame: () => {},
      schemes: ['http', 'https'],
      refs: new RefRegistry<Tab>(),
    };
    // In process (the server's case): Playwright's utility world.
    const local = await browser.newPage();
    expect(utilityWorld(local)).toBeDefined();
    // Connected to a browser server: no in-process objects, so our own world.
    const server = await chromium.launchServer({
      executablePath: process.env.MCP_BROWSER_EXECUTABLE ?? findOnPath(process.env),
      args: ['--disable-gpu'],
      chromiumSandbox: false,
    });
    const remote = await chromium.connect(server.wsEndpoint());
    try {
      const connected = await remote.newPage();
      expect(utilityWorld(connected)).toBeUndefined();
      for (const page of [local, connected]) {
        await page.setContent(hostile);
        const tab = new Tab(1, page, hooks);
        const [before, after] = [await pageFacts(tab), await pageFacts(tab)];
        expect(before.elements).toBeGreaterThan(4);
        expect(before.title).toBe('Hostile');
        expect(after.document).toBe(before.document);
      }
    } finally {
      await remote.close();
      await server.close();
      await local.close();
    }
  }, 60_000);
});

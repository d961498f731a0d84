/**
 * The SearXNG tools against a real local searx (Debian's package, started by the harness on
 * 127.0.0.1) whose engines read result lists this test serves: 30 local pages, 10 a page (case
 * SE-06), and a news list. No request leaves the machine.
 */
import {
  callChecked,
  type FakeApi,
  SEARX_MISSING,
  type SearxService,
  searxInstalled,
  startFakeApi,
  startSearx,
  structured,
} from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './support.js';

const TOTAL = 30;
const PER_PAGE = 10;

let site: FakeApi;
let searx: SearxService;
beforeAll(async () => {
  if (!searxInstalled()) throw new Error(SEARX_MISSING);
  site = await startFakeApi();
  const list = (kind: string) => (req: { query: URLSearchParams }) => {
    const page = Number(req.query.get('page') ?? '1');
    const q = req.query.get('q') ?? '';
    const first = (page - 1) * PER_PAGE + 1;
    const results = [];
    for (let i = first; i <= Math.min(page * PER_PAGE, TOTAL); i++)
      results.push({
        url: `${site.url}/${kind}/${i}`,
        title: `Local ${kind} ${i} on ${q}`,
        content: `Snippet ${i} \u200babout ${q}`,
      });
    return { body: { results } };
  };
  site.route('GET', '/results.json', list('page'));
  site.route('GET', '/news.json', list('story'));
  searx = await startSearx([
    { name: 'localpages', searchUrl: `${site.url}/results.json?q={query}&page={pageno}` },
    { name: 'localnews', categories: 'news', searchUrl: `${site.url}/news.json?q={query}&page={pageno}` },
  ]);
}, 60_000);
afterAll(async () => {
  await searx?.stop();
  await site?.close();
});

const env = () => ({ SEARXNG_URL: searx.url, BRAVE_API_KEY: '' });
type Found = {
  results: { title: string; url: string; snippet?: string }[];
  hasMore: boolean;
  nextOffset?: number;
};

describe('SearXNG provider (real local searx)', () => {
  it('SE-06 the SearXNG search with count 5 returns 5 and says more exist', async () => {
    const conn = await startServer(undefined, ['--search-interval', '0'], { env: env() });
    try {
      const result = await callChecked(conn, 'web_search', { query: 'mcp', count: 5 });
      expect(result.isError).toBeFalsy();
      const got = structured<Found>(result);
      expect(got.results.map((r) => r.title)).toEqual([1, 2, 3, 4, 5].map((i) => `Local page ${i} on mcp`));
      expect(got).toMatchObject({ hasMore: true, nextOffset: 1 });
    } finally {
      await conn.close();
    }
  });

  it('SE-06 offsets page through all 30 results in pages of count, no overlap, no gap, and the last says no more', async () => {
    const conn = await startServer(undefined, ['--search-interval', '0'], { env: env() });
    try {
      const seen: string[] = [];
      let offset: number | undefined = 0;
      while (offset !== undefined) {
        const got: Found = structured<Found>(
          await callChecked(conn, 'web_search', { query: 'mcp', count: 7, offset }),
        );
        seen.push(...got.results.map((r) => r.url));
        offset = got.hasMore ? got.nextOffset : undefined;
      }
      expect(seen).toEqual(Array.from({ length: TOTAL }, (_, i) => `${site.url}/page/${i + 1}`));
    } finally {
      await conn.close();
    }
  });

  it('ALL-06 snippets from the engine come back as data with invisible characters neutralised', async () => {
    const conn = await startServer(undefined, ['--search-interval', '0'], { env: env() });
    try {
      const result = await callChecked(conn, 'web_search', { query: 'mcp', count: 2 });
      expect(result.text).not.toContain('\u200b');
      expect(result.text).toMatch(/untrusted|data/i);
    } finally {
      await conn.close();
    }
  });

  it('news_search reads the news category; the Brave tools are not served', async () => {
    const conn = await startServer(undefined, ['--search-interval', '0'], { env: env() });
    try {
      const names = (await conn.tools()).map((t) => t.name);
      expect(names).not.toContain('brave_web_search');
      const got = structured<Found>(await callChecked(conn, 'news_search', { query: 'mcp', count: 3 }));
      expect(got.results.map((r) => r.title)).toEqual([1, 2, 3].map((i) => `Local story ${i} on mcp`));
    } finally {
      await conn.close();
    }
  });
});

describe('--provider', () => {
  it('with both configured, Brave serves by default and --provider searxng switches to the neutral tools', async () => {
    const both = { ...env(), BRAVE_API_KEY: 'TESTTOKEN123', BRAVE_API_URL: 'http://127.0.0.1:9/res/v1' };
    const brave = await startServer(undefined, [], { env: both });
    const searxng = await startServer(undefined, ['--provider', 'searxng'], { env: both });
    try {
      expect((await brave.tools()).map((t) => t.name)).toContain('brave_web_search');
      const names = (await searxng.tools()).map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining(['web_search', 'news_search', 'image_search', 'video_search']),
      );
      expect(names.some((n) => n.startsWith('brave_'))).toBe(false);
    } finally {
      await brave.close();
      await searxng.close();
    }
  });
});

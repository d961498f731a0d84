/**
 * Issue 28 item 4: a SearXNG answer whose engines failed (`unresponsive_engines`: a CAPTCHA, a block,
 * an HTTP error) is reported as such — which engines and why — not as "no results". A real local
 * searx asks engines served here: one answers a reCAPTCHA page (503), one 403, one 500, and one
 * news engine answers results, so a search both with and without results meets failed engines.
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

let site: FakeApi;
let searx: SearxService;
beforeAll(async () => {
  if (!searxInstalled()) throw new Error(SEARX_MISSING);
  site = await startFakeApi();
  site.route('GET', '/captcha.json', () => ({
    status: 503,
    raw: '<html><script src="https://www.google.com/recaptcha/api.js"></script></html>',
    headers: { 'content-type': 'text/html' },
  }));
  site.route('GET', '/denied.json', () => ({ status: 403, body: { error: 'denied' } }));
  site.route('GET', '/broken.json', () => ({ status: 500, body: { error: 'boom' } }));
  site.route('GET', '/news.json', (req) => ({
    body: {
      results: [1, 2, 3].map((i) => ({
        url: `${site.url}/story/${i}`,
        title: `Story ${i} on ${req.query.get('q')}`,
        content: `Snippet ${i}`,
      })),
    },
  }));
  const at = (path: string) => `${site.url}${path}?q={query}&page={pageno}`;
  searx = await startSearx([
    { name: 'gooble', searchUrl: at('/captcha.json') },
    { name: 'bling', searchUrl: at('/denied.json') },
    { name: 'crashy', searchUrl: at('/broken.json') },
    { name: 'newsy', categories: 'news', searchUrl: at('/news.json') },
    { name: 'newsbroken', categories: 'news', searchUrl: at('/broken.json') },
  ]);
}, 60_000);
afterAll(async () => {
  await searx?.stop();
  await site?.close();
});

type Answer = {
  results: unknown[];
  failedEngines?: { engine: string; reason: string }[];
};

describe('SearXNG engines that failed (real local searx)', () => {
  it('with no results, says which engines failed and why instead of "no results"', async () => {
    const conn = await startServer(undefined, [], { env: { SEARXNG_URL: searx.url, BRAVE_API_KEY: '' } });
    try {
      const result = await callChecked(conn, 'web_search', { query: 'model context protocol' });
      expect(result.isError).toBeFalsy();
      expect(result.text).toMatch(/No web results for "model context protocol", because engines failed: /);
      expect(result.text).toMatch(/gooble \(CAPTCHA required[^)]*\)/);
      expect(result.text).toMatch(/bling \(blocked[^)]*\)/);
      expect(result.text).toMatch(/crashy \(HTTP error[^)]*\)/);
      const answer = structured<Answer>(result);
      expect(answer.results).toEqual([]);
      expect(answer.failedEngines?.map((f) => f.engine).sort()).toEqual(['bling', 'crashy', 'gooble']);
      expect(answer.failedEngines?.find((f) => f.engine === 'gooble')?.reason).toMatch(/CAPTCHA/);
    } finally {
      await conn.close();
    }
  });

  it('with results, still names the engines that failed (results may be missing)', async () => {
    const conn = await startServer(undefined, [], { env: { SEARXNG_URL: searx.url, BRAVE_API_KEY: '' } });
    try {
      const result = await callChecked(conn, 'news_search', { query: 'mcp', count: 3 });
      expect(result.isError).toBeFalsy();
      const answer = structured<Answer>(result);
      expect(answer.results).toHaveLength(3);
      expect(answer.failedEngines).toEqual([
        { engine: 'newsbroken', reason: expect.stringMatching(/HTTP error/) },
      ]);
      expect(result.text).toMatch(/Engines that failed \(results may be missing\): newsbroken \(HTTP error/);
    } finally {
      await conn.close();
    }
  });
});

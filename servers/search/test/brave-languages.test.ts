/**
 * Issue 28 item 4: language tags people write (`ja`, `zh`, `zh-TW`, `pt`, `en-US`, `ja_JP`…) reach
 * Brave as the `search_lang` codes it accepts (the fake answers 422 to any other, as Brave does),
 * and a language Brave has no code for is refused before any request, naming the accepted codes.
 */
import { callChecked } from '@refmcp/test-harness';
import type { FakeBrave } from '@refmcp/test-harness/fakes/brave';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startBrave, startServer } from './support.js';

let brave: FakeBrave;
beforeAll(async () => {
  brave = await startBrave();
  brave.setPlan({ perSecond: 50, enforce: false });
});
afterAll(() => brave.close());
beforeEach(() => brave.api.clearRequests());

describe('Brave search_lang as users write it', () => {
  it('maps common tags to the codes Brave accepts, in every Brave search tool', async () => {
    const conn = await startServer(brave);
    try {
      const cases: [string, string][] = [
        ['ja', 'jp'],
        ['ja-JP', 'jp'],
        ['zh', 'zh-hans'],
        ['zh-CN', 'zh-hans'],
        ['zh-TW', 'zh-hant'],
        ['zh_HK', 'zh-hant'],
        ['pt', 'pt-br'],
        ['pt-PT', 'pt-pt'],
        ['PT-BR', 'pt-br'],
        ['en-US', 'en'],
        ['en-GB', 'en-gb'],
        ['de-AT', 'de'],
        ['no', 'nb'],
        ['iw', 'he'],
        ['ko', 'ko'],
      ];
      for (const [tag, code] of cases) {
        brave.api.clearRequests();
        const result = await callChecked(conn, 'brave_web_search', { query: 'mcp', search_lang: tag });
        expect({ tag, error: result.isError ? result.text : undefined }).toEqual({ tag, error: undefined });
        expect({ tag, sent: brave.api.requests[0]?.query.get('search_lang') }).toEqual({ tag, sent: code });
      }
      for (const tool of ['brave_news_search', 'brave_video_search', 'brave_image_search']) {
        brave.api.clearRequests();
        const result = await callChecked(conn, tool, { query: 'mcp', search_lang: 'zh-TW' });
        expect({ tool, error: result.isError ? result.text : undefined }).toEqual({ tool, error: undefined });
        expect(brave.api.requests[0]?.query.get('search_lang')).toBe('zh-hant');
      }
    } finally {
      await conn.close();
    }
  });

  it('refuses a language Brave has no code for before any request, naming the accepted codes', async () => {
    const conn = await startServer(brave);
    try {
      for (const tag of ['fa', 'id', 'sw', 'xx', 'klingon']) {
        const result = await callChecked(conn, 'brave_web_search', { query: 'mcp', search_lang: tag });
        expect(result.isError).toBe(true);
        expect(result.text).toContain(`search_lang: Brave Search has no language "${tag}"`);
        expect(result.text).toMatch(/jp, .*zh-hant|zh-hant.*jp/);
      }
      expect(brave.api.requests).toEqual([]);
    } finally {
      await conn.close();
    }
  });
});

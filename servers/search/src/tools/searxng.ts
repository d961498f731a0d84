/**
 * The SearXNG tools, under provider-neutral names (README "Tool names"): `web_search`,
 * `news_search`, `image_search`, `video_search` — SearXNG's categories general, news, images and
 * videos. The same query, count and offset as the Brave tools (offset: a page of `count` results),
 * and language, safesearch and time_range as SearXNG takes them.
 */
import { defineTool, OPEN_WORLD_HINTS } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { arr, obj, str } from '@refmcp/shared/server';
import { UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { type Hit, metasearchOutput, searchResult, toHit } from '../format/results.js';
import * as arg from '../names.js';
import type { SearxngQuery } from '../searxng/client.js';
import type { SearchTool, SearchToolset } from '../toolsets.js';

const SAFESEARCH = { off: 0, moderate: 1, strict: 2 } as const;

const inputs = {
  query: arg.query(),
  count: arg.count(10),
  offset: arg.offset(),
  language: arg.language('language'),
  safesearch: arg.safesearch(),
  time_range: z
    .enum(['day', 'week', 'month', 'year'])
    .optional()
    .describe('Only results of the past day, week, month or year'),
};

/** A SearXNG result as a hit (general, news, images and videos share most fields). */
function searxHit(text: UntrustedText, r: Record<string, unknown>): Hit | undefined {
  const engines = arr(r.engines).map(str).filter(Boolean);
  return toHit(text, {
    title: str(r.title),
    url: str(r.url),
    snippet: str(r.content),
    age: str(r.publishedDate) ?? str(r.pubdate),
    source: str(r.author) ?? str(r.source) ?? (engines.length ? engines.join(', ') : str(r.engine)),
    image: str(r.img_src),
    duration: str(r.length),
  });
}

export function searxngTools(config: Config): SearchTool[] {
  const searxng = config.searxng;
  if (!searxng) return [];
  const tool = (
    name: string,
    title: string,
    toolset: SearchToolset,
    category: string,
    what: string,
    description: string,
  ): SearchTool =>
    defineTool({
      name,
      title,
      toolset,
      description: `${description} Through the configured SearXNG instance.`,
      inputSchema: z.strictObject(inputs),
      outputSchema: metasearchOutput,
      annotations: OPEN_WORLD_HINTS.readOnlyNonIdempotent,
      handler: async ({ query, count = 10, offset = 0, language, safesearch, time_range }, { signal }) => {
        const params: SearxngQuery = {
          categories: category,
          ...(language ? { language } : {}),
          ...(safesearch ? { safesearch: SAFESEARCH[safesearch as keyof typeof SAFESEARCH] } : {}),
          ...(time_range ? { time_range } : {}),
        };
        const window = await searxng.window(query, offset * count, count, params, signal);
        const text = new UntrustedText();
        const hits = window.results.map((r) => searxHit(text, obj(r))).filter((h): h is Hit => !!h);
        return searchResult(
          what,
          query,
          hits,
          { offset, count, hasMore: window.hasMore && offset < arg.MAX_OFFSET },
          text,
          window.failed,
        );
      },
    }) as SearchTool;
  return [
    tool(
      'web_search',
      'Web search',
      'search',
      'general',
      'Web results',
      'Web search: title, URL and snippet of each result; up to 20 a call, offset for the next pages.',
    ),
    tool(
      'news_search',
      'News search',
      'media',
      'news',
      'News',
      'Search news: headline, URL, snippet, date and source.',
    ),
    tool(
      'image_search',
      'Image search',
      'media',
      'images',
      'Images',
      'Search images: title, the page it is on and the image URL.',
    ),
    tool(
      'video_search',
      'Video search',
      'media',
      'videos',
      'Videos',
      'Search videos: title, URL, snippet and duration.',
    ),
  ];
}

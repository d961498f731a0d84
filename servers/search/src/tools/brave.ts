/**
 * The Brave tools: the reference's `brave_web_search` (query, count, offset) and
 * `brave_local_search` (query, count) with the same names and arguments — offset sent, count
 * validated, the local lookups queued with every other request instead of tripping a limiter of
 * their own — and news, image and video search as @brave/brave-search-mcp-server 2.x has them.
 */
import { defineTool, OPEN_WORLD_HINTS } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { UntrustedText } from '@refmcp/shared/untrusted';
import { braveSearchLang } from '../brave/languages.js';
import type { Config } from '../config.js';
import { braveHit, braveImage, braveResults, moreAvailable } from '../format/brave.js';
import { type Hit, searchOutput, searchResult } from '../format/results.js';
import * as arg from '../names.js';
import type { SearchTool } from '../toolsets.js';
import { braveLocalTool } from './brave-local.js';

const filters = {
  country: arg.country(),
  search_lang: arg.braveLanguage('search_lang'),
  safesearch: arg.safesearch(),
  freshness: arg.freshness(),
};

/** `search_lang` as Brave spells it (the schema refused what has no Brave code). */
const lang = (tag: string | undefined) => {
  const code = tag === undefined ? undefined : braveSearchLang(tag);
  return code ? { search_lang: code } : {};
};

const take = (hits: (Hit | undefined)[], count: number): Hit[] =>
  hits.filter((h): h is Hit => h !== undefined).slice(0, count);

/** The paged Brave searches: same arguments (query, count, offset, filters), hits from one section. */
const PAGED = [
  {
    name: 'brave_web_search',
    title: 'Brave web search',
    toolset: 'search',
    description:
      'Web search (Brave): title, URL, snippet and age of each result; up to 20 a call, offset for the next pages.',
    what: 'Web results',
    path: '/web/search',
    section: 'web',
    // Only the web section: the mixed-in news and videos would not be counted in `count`.
    extra: { result_filter: 'web' },
  },
  {
    name: 'brave_news_search',
    title: 'Brave news search',
    toolset: 'media',
    description: 'News search (Brave): headline, URL, snippet, age and source.',
    what: 'News',
    path: '/news/search',
  },
  {
    name: 'brave_video_search',
    title: 'Brave video search',
    toolset: 'media',
    description: 'Video search (Brave): title, URL, snippet, age, creator and duration.',
    what: 'Videos',
    path: '/videos/search',
  },
] as const;

export function braveTools(config: Config): SearchTool[] {
  const brave = config.brave;
  const paged = PAGED.map((spec) =>
    defineTool({
      name: spec.name,
      title: spec.title,
      toolset: spec.toolset,
      description: spec.description,
      inputSchema: z.strictObject({
        query: arg.query(),
        count: arg.count(10),
        offset: arg.offset(),
        ...filters,
      }),
      outputSchema: searchOutput,
      annotations: OPEN_WORLD_HINTS.readOnlyNonIdempotent,
      handler: async ({ query, count = 10, offset = 0, search_lang, ...rest }, { signal }) => {
        const extra = 'extra' in spec ? spec.extra : {};
        const answer = await brave.get(
          spec.path,
          { q: query, count, offset, ...rest, ...lang(search_lang), ...extra },
          signal,
        );
        const text = new UntrustedText();
        const section = 'section' in spec ? spec.section : undefined;
        const hits = take(
          braveResults(answer, section).map((r) => braveHit(text, r)),
          count,
        );
        const hasMore = moreAvailable(answer) && offset < arg.MAX_OFFSET;
        return searchResult(spec.what, query, hits, { offset, count, hasMore }, text);
      },
    }),
  );
  const [web, news, videos] = paged as unknown as [SearchTool, SearchTool, SearchTool];
  return [
    web,
    braveLocalTool(config),
    news,
    defineTool({
      name: 'brave_image_search',
      title: 'Brave image search',
      toolset: 'media' as const,
      description: 'Image search (Brave): title, page URL, image URL and source. Not paginated.',
      inputSchema: z.strictObject({
        query: arg.query(),
        count: arg.count(10),
        country: arg.country(),
        search_lang: filters.search_lang,
        safesearch: arg.safesearch(['off', 'strict']),
      }),
      outputSchema: searchOutput,
      annotations: OPEN_WORLD_HINTS.readOnlyNonIdempotent,
      handler: async ({ query, count = 10, search_lang, ...rest }, { signal }) => {
        const answer = await brave.get(
          '/images/search',
          { q: query, count, ...rest, ...lang(search_lang) },
          signal,
        );
        const text = new UntrustedText();
        const hits = take(
          braveResults(answer).map((r) => braveImage(text, r)),
          count,
        );
        return searchResult('Images', query, hits, { offset: 0, count, hasMore: false }, text);
      },
    }),
    videos,
  ];
}

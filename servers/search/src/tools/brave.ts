/**
 * The Brave tools: the reference's `brave_web_search` (query, count, offset) and
 * `brave_local_search` (query, count) with the same names and arguments — offset sent, count
 * validated, the local lookups queued with every other request instead of tripping a limiter of
 * their own — and news, image and video search as @brave/brave-search-mcp-server 2.x has them.
 */
import { compact, defineTool, OPEN_WORLD_HINTS } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import {
  braveHit,
  braveImage,
  braveResults,
  descriptions,
  locationIds,
  moreAvailable,
  placeShape,
  renderPlace,
  toPlace,
} from '../format/brave.js';
import { type Hit, searchOutput, searchResult } from '../format/results.js';
import * as arg from '../names.js';
import type { SearchTool } from '../toolsets.js';

const filters = {
  country: arg.country(),
  search_lang: arg.language('search_lang'),
  safesearch: arg.safesearch(),
  freshness: arg.freshness(),
};

const take = (hits: (Hit | undefined)[], count: number): Hit[] =>
  hits.filter((h): h is Hit => h !== undefined).slice(0, count);

export function braveTools(config: Config): SearchTool[] {
  const brave = config.brave;

  /** One paged Brave search of `path`; hits from `section` of the answer. */
  const paged =
    (what: string, path: string, section: string | undefined, fallback: number) =>
    async (
      {
        query,
        count = fallback,
        offset = 0,
        ...rest
      }: { query: string; count?: number; offset?: number; [k: string]: string | number | undefined },
      signal: AbortSignal,
    ) => {
      const answer = await brave.get(path, { q: query, count, offset, ...rest }, signal);
      const text = new UntrustedText();
      const hits = take(
        braveResults(answer, section).map((r) => braveHit(text, r)),
        count,
      );
      return searchResult(
        what,
        query,
        hits,
        { offset, count, hasMore: moreAvailable(answer) && offset < arg.MAX_OFFSET },
        text,
      );
    };

  const web = paged('Web results', '/web/search', 'web', 10);
  const news = paged('News', '/news/search', undefined, 10);
  const videos = paged('Videos', '/videos/search', undefined, 10);

  return [
    defineTool({
      name: 'brave_web_search',
      title: 'Brave web search',
      toolset: 'search' as const,
      description:
        'Web search (Brave): title, URL, snippet and age of each result; up to 20 a call, offset for the next pages.',
      inputSchema: z.strictObject({
        query: arg.query(),
        count: arg.count(10),
        offset: arg.offset(),
        ...filters,
      }),
      outputSchema: searchOutput,
      annotations: OPEN_WORLD_HINTS.readOnlyNonIdempotent,
      handler: (args, { signal }) => web({ ...args, result_filter: 'web' }, signal),
    }),
    defineTool({
      name: 'brave_local_search',
      title: 'Brave local search',
      toolset: 'search' as const,
      description:
        "Local businesses and places (e.g. 'pizza near Central Park'): name, address, phone, rating, price, today's hours, description. Web results when none are found.",
      inputSchema: z.strictObject({
        query: arg.query('Local search query'),
        count: arg.count(5),
      }),
      outputSchema: searchOutput.extend({ places: z.array(placeShape) }),
      annotations: OPEN_WORLD_HINTS.readOnlyNonIdempotent,
      handler: async ({ query, count = 5 }, { signal }) => {
        // One web request with both sections: the locations, and the fallback if there are none.
        const answer = await brave.get(
          '/web/search',
          { q: query, count, search_lang: 'en', result_filter: 'web,locations' },
          signal,
        );
        const ids = locationIds(answer).slice(0, count);
        const text = new UntrustedText();
        if (!ids.length) {
          const hits = take(
            braveResults(answer, 'web').map((r) => braveHit(text, r)),
            count,
          );
          const result = searchResult(
            'Web results (no places found)',
            query,
            hits,
            { offset: 0, count, hasMore: false },
            text,
          );
          return { ...result, structuredContent: { ...(result.structuredContent ?? {}), places: [] } };
        }
        // Both lookups pass the one queue: paced by the plan, never refused by this server.
        const [pois, descs] = await Promise.all([
          brave.get('/local/pois', { ids }, signal),
          brave.get('/local/descriptions', { ids }, signal),
        ]);
        const about = descriptions(descs);
        const places = braveResults(pois).map((p) => toPlace(text, p, about.get(String(p.id))));
        return respond(
          compact({ query, places, results: [], hasMore: false }),
          [`${places.length} place(s) for "${query}":`, ...places.map((p, i) => renderPlace(p, i + 1))],
          text,
        );
      },
    }),
    defineTool({
      name: 'brave_news_search',
      title: 'Brave news search',
      toolset: 'media' as const,
      description: 'News search (Brave): headline, URL, snippet, age and source.',
      inputSchema: z.strictObject({
        query: arg.query(),
        count: arg.count(10),
        offset: arg.offset(),
        ...filters,
      }),
      outputSchema: searchOutput,
      annotations: OPEN_WORLD_HINTS.readOnlyNonIdempotent,
      handler: (args, { signal }) => news(args, signal),
    }),
    defineTool({
      name: 'brave_image_search',
      title: 'Brave image search',
      toolset: 'media' as const,
      description:
        'Search images with Brave Search: title, the page it is on, the image URL and the source. Not paginated.',
      inputSchema: z.strictObject({
        query: arg.query(),
        count: arg.count(10),
        country: arg.country(),
        search_lang: filters.search_lang,
        safesearch: arg.safesearch(['off', 'strict']),
      }),
      outputSchema: searchOutput,
      annotations: OPEN_WORLD_HINTS.readOnlyNonIdempotent,
      handler: async ({ query, count = 10, ...rest }, { signal }) => {
        const answer = await brave.get('/images/search', { q: query, count, ...rest }, signal);
        const text = new UntrustedText();
        const hits = take(
          braveResults(answer).map((r) => braveImage(text, r)),
          count,
        );
        return searchResult('Images', query, hits, { offset: 0, count, hasMore: false }, text);
      },
    }),
    defineTool({
      name: 'brave_video_search',
      title: 'Brave video search',
      toolset: 'media' as const,
      description: 'Video search (Brave): title, URL, snippet, age, creator and duration.',
      inputSchema: z.strictObject({
        query: arg.query(),
        count: arg.count(10),
        offset: arg.offset(),
        ...filters,
      }),
      outputSchema: searchOutput,
      annotations: OPEN_WORLD_HINTS.readOnlyNonIdempotent,
      handler: (args, { signal }) => videos(args, signal),
    }),
  ];
}

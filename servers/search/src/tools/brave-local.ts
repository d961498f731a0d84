/**
 * `brave_local_search` (the reference's name and arguments): one web search with the web and
 * locations sections, then the POIs and their descriptions for the location ids — both lookups
 * through the one queue of the key, so they are paced by the plan and never refused by this
 * server — or, when the query has no places, the web results of that same answer.
 */
import { compact, defineTool, OPEN_WORLD_HINTS } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import {
  braveHit,
  braveResults,
  descriptions,
  locationIds,
  placeShape,
  renderPlace,
  toPlace,
} from '../format/brave.js';
import { type Hit, searchOutput, searchResult } from '../format/results.js';
import * as arg from '../names.js';
import type { SearchTool } from '../toolsets.js';

const take = (hits: (Hit | undefined)[], count: number): Hit[] =>
  hits.filter((h): h is Hit => h !== undefined).slice(0, count);

export function braveLocalTool(config: Config): SearchTool {
  const brave = config.brave;
  return defineTool({
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
  }) as SearchTool;
}

/**
 * Compact search results, the same for every provider: the fields a model needs (title, URL,
 * snippet, age, and per kind its source, image or duration), every upstream text through the
 * result's UntrustedText (neutralised, bounded) and the whole result bounded in bytes however large
 * the provider's answer: at most `count` hits, a title ≤ 300 bytes, a snippet ≤ 600 bytes.
 */

import type { ToolResult } from '@refmcp/shared';
import { compact } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { neutralizedField, respond, type UntrustedText } from '@refmcp/shared/untrusted';

export const TITLE_BYTES = 300;
export const SNIPPET_BYTES = 600;
export const URL_BYTES = 2048;

/** One search hit as the model sees it. */
export interface Hit {
  title: string;
  url: string;
  snippet?: string;
  /** How old the page or item is, as the provider says it ("3 days ago", an ISO date). */
  age?: string;
  /** Publisher or site (news, video, image). */
  source?: string;
  /** The image itself (image search). */
  image?: string;
  /** Running time (video search). */
  duration?: string;
}

export const hitShape = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string().optional(),
  age: z.string().optional(),
  source: z.string().optional(),
  image: z.string().optional(),
  duration: z.string().optional(),
});

/** The output schema of every search tool. */
export const searchOutput = z.object({
  query: z.string(),
  results: z.array(hitShape),
  hasMore: z.boolean(),
  nextOffset: z.number().optional().describe('Pass as offset for the next page when hasMore'),
  ...neutralizedField,
});

/** An engine of a metasearch instance that failed, as shown to the model. */
export interface FailedEngineNote {
  engine: string;
  reason: string;
}

/** The output schema of the SearXNG tools: {@link searchOutput} plus the engines that failed. */
export const metasearchOutput = searchOutput.extend({
  failedEngines: z
    .array(z.object({ engine: z.string(), reason: z.string() }))
    .optional()
    .describe('Engines that failed (CAPTCHA, blocked, timeout, …): results may be missing'),
});

/** Brave marks query terms with <strong>; the markup costs bytes and carries nothing. */
function plain(text: string | undefined): string | undefined {
  return text?.replace(/<\/?(strong|b|em)>/gi, '');
}

/** A hit from provider fields, every text through `text`; undefined when it has no URL. */
export function toHit(
  text: UntrustedText,
  fields: {
    title?: string;
    url?: string;
    snippet?: string;
    age?: string;
    source?: string;
    image?: string;
    duration?: string;
  },
): Hit | undefined {
  if (!fields.url) return undefined;
  const snippet = plain(fields.snippet);
  return compact({
    title: text.line(plain(fields.title) ?? '', TITLE_BYTES) || '(untitled)',
    url: text.line(fields.url, URL_BYTES),
    snippet: snippet
      ? text.clean(snippet, SNIPPET_BYTES, 'open the page with fetch_url').replace(/\s*\n\s*/g, ' ')
      : undefined,
    age: fields.age ? text.line(fields.age, 64) : undefined,
    // A source that only repeats the URL's host says nothing the URL does not.
    source:
      fields.source && !fields.url.includes(`//${fields.source}`) ? text.line(fields.source, 200) : undefined,
    image: fields.image ? text.line(fields.image, URL_BYTES) : undefined,
    duration: fields.duration ? text.line(fields.duration, 32) : undefined,
  }) as Hit;
}

/** One numbered hit as text: "3. Title — URL (age, source)\n   snippet". */
export function renderHit(hit: Hit, n: number): string {
  const meta = [hit.age, hit.source, hit.duration].filter(Boolean).join(', ');
  const head = `${n}. ${hit.title} — ${hit.url}${meta ? ` (${meta})` : ''}`;
  const lines = [head];
  if (hit.image) lines.push(`   image: ${hit.image}`);
  if (hit.snippet) lines.push(`   ${hit.snippet}`);
  return lines.join('\n');
}

/**
 * The result of a search: `hits` (already cut to count), numbered from offset·count + 1, with the
 * page line that says whether more exist and how to get them. `failed` (a metasearch instance's
 * engines that failed; names and reasons through `text`) is said next to the head: with no hits,
 * the answer is "the engines failed", not "nothing found".
 */
export function searchResult(
  what: string,
  query: string,
  hits: Hit[],
  page: { offset: number; count: number; hasMore: boolean },
  text: UntrustedText,
  failed: FailedEngineNote[] = [],
): ToolResult {
  const first = page.offset * page.count + 1;
  const nextOffset = page.hasMore ? page.offset + 1 : undefined;
  const failedEngines = failed.map((f) => ({
    engine: text.line(f.engine, 100),
    reason: text.line(f.reason, 200),
  }));
  const list = failedEngines.map((f) => `${f.engine} (${f.reason})`).join(', ');
  const head = hits.length
    ? `${what} ${first}–${first + hits.length - 1} for "${query}"${nextOffset !== undefined ? ` (more: offset ${nextOffset})` : ''}:`
    : failed.length
      ? `No ${what.toLowerCase()} for "${query}"${page.offset ? ` at offset ${page.offset}` : ''}, because engines failed: ${list}. Results may exist: retry later, or ask the instance's operator to fix or replace these engines.`
      : `No ${what.toLowerCase()} for "${query}"${page.offset ? ` at offset ${page.offset}` : ''}.`;
  const warning =
    hits.length && failed.length ? [`Engines that failed (results may be missing): ${list}.`] : [];
  return respond(
    compact({
      query,
      results: hits,
      hasMore: page.hasMore,
      nextOffset,
      failedEngines: failedEngines.length ? failedEngines : undefined,
    }),
    [head, ...warning, ...hits.map((h, i) => renderHit(h, first + i))],
    text,
  );
}

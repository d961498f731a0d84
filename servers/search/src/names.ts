/**
 * Argument schemas, validated before any request, with the limits Brave documents for
 * `GET /web/search` (api-dashboard.search.brave.com/api-reference/web/search/get): `q` at most 400
 * characters and 50 words, `count` 1–20, `offset` 0–9 (a page index: pages of `count` results).
 * Each refusal names the argument and its range. The SearXNG tools take the same query, count and
 * offset, so a model moves between providers without relearning.
 */
import { safeString, z } from '@refmcp/shared/schema';
import { braveSearchLang, unknownSearchLang } from './brave/languages.js';

export const MAX_QUERY_CHARS = 400;
export const MAX_QUERY_WORDS = 50;
export const MAX_COUNT = 20;
export const MAX_OFFSET = 9;

/** Words as Brave counts them: runs of non-space characters. */
export function wordCount(text: string): number {
  return text.trim().split(/\s+/).filter(Boolean).length;
}

/** The search query: non-blank, ≤ 400 characters, ≤ 50 words. */
export const query = (what = 'Search query') =>
  safeString({ max: MAX_QUERY_CHARS })
    .max(MAX_QUERY_CHARS, { message: `query must be at most ${MAX_QUERY_CHARS} characters` })
    .refine((q) => q.trim().length > 0, { message: 'query must not be empty' })
    .refine((q) => wordCount(q) <= MAX_QUERY_WORDS, {
      message: `query must be at most ${MAX_QUERY_WORDS} words`,
    })
    .describe(`${what} (max ${MAX_QUERY_CHARS} chars, ${MAX_QUERY_WORDS} words)`);

/** How many results: 1–`max`, default `fallback`. */
export const count = (fallback: number, max = MAX_COUNT) =>
  z
    .number()
    .int({ message: `count must be a whole number from 1 to ${max}` })
    .min(1, { message: `count must be from 1 to ${max}` })
    .max(max, { message: `count must be from 1 to ${max}` })
    .optional()
    .describe(`Results (1-${max}, default ${fallback})`);

/** Which page of `count` results: 0–9. */
export const offset = () =>
  z
    .number()
    .int({ message: `offset must be a whole number from 0 to ${MAX_OFFSET}` })
    .min(0, { message: `offset must be from 0 to ${MAX_OFFSET}` })
    .max(MAX_OFFSET, { message: `offset must be from 0 to ${MAX_OFFSET}` })
    .optional()
    .describe(`Page index (0-${MAX_OFFSET}, pages of count)`);

/** A string matching `pattern` (checked by refine, so the advertised schema stays small), or absent. */
const matching = (pattern: RegExp, message: string, description: string) =>
  z
    .string()
    .refine((v) => pattern.test(v), { message })
    .optional()
    .describe(description);

/** Brave `freshness`: pd, pw, pm, py or YYYY-MM-DDtoYYYY-MM-DD. */
export const freshness = () =>
  matching(
    /^(pd|pw|pm|py|\d{4}-\d{2}-\d{2}to\d{4}-\d{2}-\d{2})$/,
    'freshness must be pd, pw, pm, py or YYYY-MM-DDtoYYYY-MM-DD',
    'pd/pw/pm/py (past day/week/month/year) or YYYY-MM-DDtoYYYY-MM-DD',
  );

/** Brave `country`: a 2-letter country code. */
export const country = () =>
  matching(/^[A-Za-z]{2}$/, 'country must be a 2-letter country code', 'Country code, e.g. US');

/** A language code: `en`, `pt-br`, `zh-hans`. */
export const language = (name: string) =>
  matching(
    /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,4})?$/,
    `${name} must be a language code such as en or pt-br`,
    'Language code, e.g. en',
  );

/**
 * Brave `search_lang`: a language tag Brave has a code for ({@link braveSearchLang}: `ja`, `zh-TW`,
 * `pt` are mapped by the tool), else refused before any request, naming the accepted codes.
 */
export const braveLanguage = (name: string) =>
  z
    .string()
    .superRefine((tag, ctx) => {
      if (braveSearchLang(tag) === undefined)
        ctx.addIssue({ code: 'custom', message: unknownSearchLang(name, tag) });
    })
    .optional()
    .describe('Language code, e.g. en');

/** Adult-content filter. */
export const safesearch = (values: readonly [string, ...string[]] = ['off', 'moderate', 'strict']) =>
  z.enum(values).optional().describe('Adult filter');

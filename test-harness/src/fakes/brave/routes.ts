// The fake Brave's routes under /res/v1: web, news, video and image search paged by count and
// offset (offset is a page index, as Brave documents), and the two local lookups by repeated `ids`.
import type { FakeRequest } from '../../fake-api/index.js';
import { Reply } from '../../fake-api/index.js';
import { braveError, type FakeBrave } from './fake-brave.js';
import { generatedImages, generatedNews, generatedVideos, generatedWeb } from './objects.js';

/**
 * Brave's `search_lang` values (API reference, web search "Language codes"): anything else, `ja`
 * or `zh-TW` included, is a 422 like Brave's.
 */
export const SEARCH_LANGS = new Set(
  'ar eu bn bg ca zh-hans zh-hant hr cs da nl en en-gb et fi fr gl de gu he hi hu is it jp kn ko lv lt ms ml mr nb pl pt-br pt-pt pa ro ru sr sk sl es sv ta te th tr uk vi'.split(
    ' ',
  ),
);

/**
 * The q, count and offset of a search request (422 like Brave for a missing q, out-of-range
 * numbers or a `search_lang` Brave does not list).
 */
export function searchArgs(req: FakeRequest, maxCount = 20): { q: string; count: number; offset: number } {
  const q = req.query.get('q') ?? '';
  const count = Number(req.query.get('count') ?? '20');
  const offset = Number(req.query.get('offset') ?? '0');
  const bad = (detail: string) =>
    new Reply(braveError(422, 'VALIDATION', detail, { component: 'validation' }));
  if (!q.trim()) throw bad('q: field required');
  if (q.length > 400 || q.trim().split(/\s+/).length > 50)
    throw bad('q: at most 400 characters and 50 words');
  if (!Number.isInteger(count) || count < 1 || count > maxCount) throw bad(`count: must be 1 to ${maxCount}`);
  if (!Number.isInteger(offset) || offset < 0 || offset > 9) throw bad('offset: must be 0 to 9');
  const lang = req.query.get('search_lang');
  if (lang !== null && !SEARCH_LANGS.has(lang)) throw bad(`search_lang: unsupported value ${lang}`);
  return { q, count, offset };
}

const query = (q: string, more: boolean) => ({ original: q, more_results_available: more });

/** Registers every route on `brave`. */
export function registerBraveRoutes(brave: FakeBrave): void {
  const s = brave.scene;
  const page = <T>(all: T[], count: number, offset: number) => {
    const start = offset * count;
    return { items: all.slice(start, start + count), more: all.length > start + count };
  };

  brave.route('GET', '/web/search', (req) => {
    const { q, count, offset } = searchArgs(req);
    const filter = (req.query.get('result_filter') ?? 'web,locations,news,videos').split(',');
    const web = page(s.web.get(q) ?? generatedWeb(q, s.generated), count, offset);
    const body: Record<string, unknown> = { type: 'search', query: query(q, web.more) };
    if (filter.includes('web')) body.web = { type: 'search', results: web.items, family_friendly: true };
    const locations = s.locations.get(q);
    if (locations && filter.includes('locations')) body.locations = { type: 'locations', results: locations };
    // Like Brave, a web answer mixes in a few news and videos (count applies to web results only).
    if (filter.includes('news')) body.news = { type: 'news', results: generatedNews(q, 3) };
    if (filter.includes('videos')) body.videos = { type: 'videos', results: generatedVideos(q, 3) };
    return { body };
  });

  brave.route('GET', '/local/pois', (req) => ({
    body: {
      type: 'local_pois',
      results: req.query.getAll('ids').flatMap((id) => {
        const p = s.pois.get(id);
        return p ? [p] : [];
      }),
    },
  }));

  brave.route('GET', '/local/descriptions', (req) => ({
    body: {
      type: 'local_descriptions',
      results: req.query.getAll('ids').flatMap((id) => {
        const d = s.descriptions.get(id);
        return d ? [{ type: 'local_description', id, description: d }] : [];
      }),
    },
  }));

  const media = (
    path: string,
    type: string,
    from: Map<string, Record<string, unknown>[]>,
    make: (q: string, n: number) => Record<string, unknown>[],
    max = 50,
  ) =>
    brave.route('GET', path, (req) => {
      const { q, count, offset } = searchArgs(req, max);
      const got = page(from.get(q) ?? make(q, s.generated), count, offset);
      return { body: { type, query: query(q, got.more), results: got.items } };
    });
  media('/news/search', 'news', s.news, generatedNews);
  media('/videos/search', 'videos', s.videos, generatedVideos);
  media('/images/search', 'images', s.images, generatedImages, 200);
}

/**
 * Brave answers → compact hits and places (api.search.brave.com/app/documentation/web-search/responses:
 * SearchResult, NewsResult, VideoResult, ImageResult, LocationResult, LocationDescription). Read
 * leniently: any field may be missing.
 */
import { compact } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { arr, num, obj, str } from '@refmcp/shared/server';
import type { UntrustedText } from '@refmcp/shared/untrusted';
import { type Hit, SNIPPET_BYTES, TITLE_BYTES, toHit } from './results.js';

/** The `results[]` of `section` (web, news, videos) of a Brave answer. */
export function braveResults(answer: unknown, section?: string): Record<string, unknown>[] {
  const holder = section ? obj(obj(answer)[section]) : obj(answer);
  return arr(holder.results).map(obj);
}

/** A web, news or video result as a hit. */
export function braveHit(text: UntrustedText, r: Record<string, unknown>): Hit | undefined {
  const meta = obj(r.meta_url);
  const video = obj(r.video);
  return toHit(text, {
    title: str(r.title),
    url: str(r.url),
    snippet: str(r.description),
    age: str(r.age) ?? str(r.page_age),
    source: str(obj(r.profile).name) ?? str(r.source) ?? str(video.creator) ?? str(meta.hostname),
    duration: str(video.duration),
  });
}

/** An image result: the page it is on as url, the picture as image. */
export function braveImage(text: UntrustedText, r: Record<string, unknown>): Hit | undefined {
  return toHit(text, {
    title: str(r.title),
    url: str(r.url),
    image: str(obj(r.properties).url) ?? str(obj(r.thumbnail).src),
    source: str(r.source) ?? str(obj(r.meta_url).hostname),
  });
}

/** True when Brave says another page of the same query exists. */
export function moreAvailable(answer: unknown): boolean {
  return obj(obj(answer).query).more_results_available === true;
}

/** One place of a local search. */
export interface Place {
  id: string;
  name: string;
  address?: string;
  phone?: string;
  rating?: number;
  reviews?: number;
  priceRange?: string;
  hours?: string;
  description?: string;
  url?: string;
}

export const placeShape = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string().optional(),
  phone: z.string().optional(),
  rating: z.number().optional(),
  reviews: z.number().optional(),
  priceRange: z.string().optional(),
  hours: z.string().optional(),
  description: z.string().optional(),
  url: z.string().optional(),
});

/** The location ids of a web answer's `locations.results[]`. */
export function locationIds(answer: unknown): string[] {
  return braveResults(answer, 'locations')
    .map((l) => str(l.id))
    .filter((id): id is string => !!id);
}

function hours(value: unknown): string | undefined {
  const today = arr(obj(value).current_day).map(obj);
  const spans = today.map((d) => [str(d.opens), str(d.closes)].filter(Boolean).join('–')).filter(Boolean);
  return spans.length ? `today ${spans.join(', ')}` : undefined;
}

/** A POI (`local/pois` LocationResult) with its description (`local/descriptions`). */
export function toPlace(text: UntrustedText, poi: Record<string, unknown>, description?: string): Place {
  const address = obj(poi.postal_address);
  const rating = obj(poi.rating);
  const addressText =
    str(address.displayAddress) ??
    [address.streetAddress, address.addressLocality, address.addressRegion, address.postalCode]
      .map(str)
      .filter(Boolean)
      .join(', ');
  return compact({
    id: str(poi.id) ?? '',
    name: text.line(str(poi.title) ?? str(poi.name) ?? '(unnamed)', TITLE_BYTES),
    address: addressText ? text.line(addressText, 400) : undefined,
    phone: str(obj(poi.contact).telephone) ? text.line(str(obj(poi.contact).telephone), 64) : undefined,
    rating: num(rating.ratingValue),
    reviews: num(rating.reviewCount),
    priceRange: str(poi.price_range) ? text.line(str(poi.price_range), 32) : undefined,
    hours: hours(poi.opening_hours),
    description: description
      ? text.clean(description, SNIPPET_BYTES, 'open the place URL').replace(/\s*\n\s*/g, ' ')
      : undefined,
    url: str(poi.url) ? text.line(str(poi.url), 2048) : undefined,
  }) as Place;
}

/** id → description of a `local/descriptions` answer. */
export function descriptions(answer: unknown): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of braveResults(answer)) {
    const id = str(d.id);
    const text = str(d.description);
    if (id && text) out.set(id, text);
  }
  return out;
}

/** A place as text. */
export function renderPlace(p: Place, n: number): string {
  const rating =
    p.rating !== undefined
      ? `rated ${p.rating}${p.reviews !== undefined ? ` (${p.reviews} reviews)` : ''}`
      : '';
  const facts = [p.address, p.phone, rating, p.priceRange, p.hours].filter(Boolean).join(' · ');
  return [
    `${n}. ${p.name}${p.url ? ` — ${p.url}` : ''}`,
    facts ? `   ${facts}` : '',
    p.description ? `   ${p.description}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

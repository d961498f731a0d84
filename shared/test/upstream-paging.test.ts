/** Link-header parsing, the vendor cursor contract and the shared page fields/line (ALL-05, GH-06). */
import { describe, expect, it } from 'vitest';
import {
  keysetNext,
  linkPageInfo,
  pageNumberOf,
  parseLinkHeader,
  queryKey,
  vendorCursor,
  vendorPosition,
} from '../src/index.js';
import { z } from '../src/schema.js';
import { compact, count, pageFields, pageLine, pageShapeFor, singular } from '../src/server/pages.js';

const GITHUB_LINK =
  '<https://api.github.com/repos/a/b/issues?page=3&per_page=30>; rel="next", <https://api.github.com/repos/a/b/issues?page=5&per_page=30>; rel="last"';

describe('Link header (RFC 8288)', () => {
  it('reads next/last/prev/first page numbers as GitHub and GitLab send them', () => {
    expect(linkPageInfo(GITHUB_LINK, 2, 30)).toEqual({
      page: 2,
      perPage: 30,
      hasMore: true,
      nextPage: 3,
      lastPage: 5,
    });
    expect(linkPageInfo(undefined, 1, 30)).toEqual({ page: 1, perPage: 30, hasMore: false });
    const gitlab =
      '<https://gitlab.example.com/api/v4/projects/8/issues?page=1&per_page=20>; rel="prev", <https://gitlab.example.com/api/v4/projects/8/issues?page=3&per_page=20>; rel="next", <https://gitlab.example.com/api/v4/projects/8/issues?page=1&per_page=20>; rel="first", <https://gitlab.example.com/api/v4/projects/8/issues?page=9&per_page=20>; rel="last"';
    const rels = parseLinkHeader(gitlab);
    expect(Object.keys(rels).sort()).toEqual(['first', 'last', 'next', 'prev']);
    expect(pageNumberOf(rels.prev)).toBe(1);
    expect(linkPageInfo(gitlab, 2, 20)).toMatchObject({ hasMore: true, nextPage: 3, lastPage: 9 });
  });

  it('handles several relations in one rel, quoted commas and semicolons, unquoted rel and relative targets', () => {
    const rels = parseLinkHeader(
      '<https://x/a?b=1,2>; title="a, b; c"; rel="next prev", </rel?page=4>; rel=last, <http://[::bad>; rel="first"',
      'https://x/y',
    );
    expect(rels.next?.href).toBe('https://x/a?b=1,2');
    expect(rels.prev?.href).toBe('https://x/a?b=1,2');
    expect(rels.last?.href).toBe('https://x/rel?page=4');
    expect(rels.first).toBeUndefined();
    // Without a base a relative target is skipped, never thrown.
    expect(parseLinkHeader('</rel?page=4>; rel="next"')).toEqual({});
    expect(pageNumberOf(new URL('https://x/?page=0'))).toBeUndefined();
    expect(pageNumberOf(new URL('https://x/?page=abc'))).toBeUndefined();
  });

  it('keyset links: the next link’s opaque query, only for the same origin and path', () => {
    const request = new URL(
      'https://gitlab.example.com/gitlab/api/v4/projects/8/issues?pagination=keyset&per_page=2',
    );
    const next =
      '<https://gitlab.example.com/gitlab/api/v4/projects/8/issues?cursor=eyJpZCI6IjQyIn0%3D&id_after=42&order_by=id&pagination=keyset&per_page=2&sort=asc>; rel="next"';
    expect(keysetNext(next, request)).toEqual({
      cursor: 'eyJpZCI6IjQyIn0=',
      id_after: '42',
      order_by: 'id',
      pagination: 'keyset',
      per_page: '2',
      sort: 'asc',
    });
    expect(
      keysetNext('<https://evil.example/gitlab/api/v4/projects/8/issues?x=1>; rel="next"', request),
    ).toBeUndefined();
    expect(
      keysetNext('<https://gitlab.example.com/gitlab/api/v4/user?x=1>; rel="next"', request),
    ).toBeUndefined();
    expect(keysetNext(undefined, request)).toBeUndefined();
  });
});

describe('vendor cursor', () => {
  const key = queryKey('list_channels', { types: 'public' });

  it('wraps a Slack next_cursor, a Drive nextPageToken, keyset params, offsets and pages, and reads them back', () => {
    for (const position of [
      { token: 'dGVhbTpDMDYxRkE1UEI=' },
      { token: '~!@#$%^&*()_+ token with spaces' },
      { params: { cursor: 'abc', id_after: '42' } },
      { offset: 200 },
      { page: 3 },
    ]) {
      const cursor = vendorCursor(key, position);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(vendorPosition(cursor, key)).toEqual(position);
    }
  });

  it('an empty vendor token (Slack next_cursor: "") or no position means no next page', () => {
    expect(vendorCursor(key, { token: '' })).toBeUndefined();
    expect(vendorCursor(key, { params: {} })).toBeUndefined();
    expect(vendorCursor(key, undefined)).toBeUndefined();
    expect(vendorPosition(undefined, key)).toBeUndefined();
    expect(vendorPosition('', key)).toBeUndefined();
  });

  it('refuses a cursor of another query, a foreign string and a malformed position, naming cursor', () => {
    const cursor = vendorCursor(key, { token: 't' });
    expect(() => vendorPosition(cursor, queryKey('list_channels', { types: 'private' }))).toThrow(
      /^cursor: it was issued for a different query/,
    );
    expect(() => vendorPosition('not-a-cursor', key)).toThrow(/^cursor: not a cursor this server issued/);
    const forged = Buffer.from(JSON.stringify({ v: 1, q: key, o: -5 })).toString('base64url');
    expect(() => vendorPosition(forged, key)).toThrow(/^cursor: malformed/);
    const nested = Buffer.from(JSON.stringify({ v: 1, q: key, k: { a: { b: 1 } } })).toString('base64url');
    expect(() => vendorPosition(nested, key)).toThrow(/^cursor: malformed/);
  });
});

describe('page fields and page line', () => {
  it('pageShapeFor names the service; count() has no ±2^53 bounds in JSON Schema', () => {
    const schema = z.toJSONSchema(z.object({ n: count(), ...pageShapeFor('GitLab') })) as {
      properties: Record<string, { description?: string; minimum?: number }>;
    };
    expect(schema.properties.n).toEqual({ type: 'integer' });
    expect(schema.properties.lastPage?.description).toBe('Number of the last page, when GitLab says');
  });

  it('pageFields drops absent numbers; pageLine says where more are', () => {
    const more = linkPageInfo(GITHUB_LINK, 2, 30);
    expect(pageFields(more)).toEqual({ page: 2, perPage: 30, hasMore: true, nextPage: 3, lastPage: 5 });
    expect(pageLine(more, 30, 'issues')).toBe(
      '30 issues on page 2 of 5 (30 per page). More exist: call again with page: 3.',
    );
    const end = { page: 4, perPage: 30, hasMore: false };
    expect(pageFields(end)).toEqual(end);
    expect(pageLine(end, 1, 'entries')).toBe('1 entry on page 4 of 4 (30 per page). No more pages.');
    expect(singular('matches')).toBe('match');
    expect(singular('pull requests')).toBe('pull request');
  });

  it('compact drops undefined values only', () => {
    expect(compact({ a: 1, b: undefined, c: null, d: '' })).toEqual({ a: 1, c: null, d: '' });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileRoute,
  cursorPage,
  type FakeApi,
  type FakeRequest,
  type FakeVendor,
  linkPage,
  offsetPage,
  Reply,
  readTraffic,
  recordTraffic,
  startFakeApi,
  startFakeVendor,
  TRAFFIC_DIR_ENV,
} from '../src/fake-api/index.js';

describe('compileRoute', () => {
  it('matches literal, :param and trailing *rest segments on the raw path, decoding params', () => {
    const r = compileRoute('/repos/:owner/:repo/contents/*path');
    expect(r.match('/repos/a/b/contents/dir%20x/a%23b.md')).toEqual({
      owner: 'a',
      repo: 'b',
      path: 'dir x/a#b.md',
    });
    expect(r.match('/repos/a/b/contents')).toEqual({ owner: 'a', repo: 'b', path: '' });
    expect(r.match('/repos/a/b')).toBeUndefined();
    expect(r.match('/repos/a/b/contents/')).toEqual({ owner: 'a', repo: 'b', path: '' });
    expect(r.match('/repos/a%2Fb/c/contents/x')).toEqual({ owner: 'a/b', repo: 'c', path: 'x' });
    expect(compileRoute('/user').match('/user/repos')).toBeUndefined();
    expect(compileRoute('/x/:id').match('/x/%E0%A4%A')).toBeUndefined();
    expect(() => compileRoute('/a/*b/c')).toThrow(/must be last/);
  });
});

describe('fake API', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi({ prefix: '/api/v3' });
    api.route('GET', '/things/:id', (req) => ({ body: { id: req.params.id, q: req.rawQuery } }));
    api.route('POST', '/things', (req) => ({ status: 201, body: JSON.parse(req.body) }));
    api.route('GET', '/text', () => ({ raw: 'plain', headers: { 'content-type': 'text/plain' } }));
  });
  afterAll(() => api.close());

  it('listens on 127.0.0.1 under its prefix and records method, raw path, raw query, headers and body', async () => {
    expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);
    api.clearRequests();
    const res = await fetch(`${api.url}/things/a%20b?ref=main%26x%3D1&y=2`, { headers: { 'x-test': '1' } });
    expect(await res.json()).toEqual({ id: 'a b', q: 'ref=main%26x%3D1&y=2' });
    const post = await fetch(`${api.url}/things`, { method: 'POST', body: '{"n":1}' });
    expect(post.status).toBe(201);
    expect(await (await fetch(`${api.url}/text`)).text()).toBe('plain');
    const [first, second] = api.requests;
    expect(first).toMatchObject({
      method: 'GET',
      rawPath: '/api/v3/things/a%20b',
      path: '/things/a%20b',
      rawQuery: 'ref=main%26x%3D1&y=2',
    });
    expect(first?.query.get('ref')).toBe('main&x=1');
    expect(first).toMatchObject({ route: '/things/:id', status: 200 });
    expect(first?.headers['x-test']).toBe('1');
    expect(second).toMatchObject({ method: 'POST', body: '{"n":1}' });
  });

  it('answers 404 outside the prefix and for unknown routes (and records them)', async () => {
    api.clearRequests();
    expect((await fetch(`${api.url.replace('/api/v3', '')}/things/1`)).status).toBe(404);
    expect((await fetch(`${api.url}/nope`)).status).toBe(404);
    expect(api.requests.map((r) => r.rawPath)).toEqual(['/things/1', '/api/v3/nope']);
  });

  it('injects 401/403/404/429/5xx faults with headers, a given number of times, for matching requests', async () => {
    api.inject({ status: 429, headers: { 'retry-after': '7' }, match: { path: '/things/' } });
    api.inject({ status: 503, times: 2, match: { method: 'GET', path: /^\/things\/2$/ } });
    const limited = await fetch(`${api.url}/things/1`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(await limited.json()).toEqual({ message: 'Too Many Requests' });
    expect((await fetch(`${api.url}/things/1`)).status).toBe(200);
    expect((await fetch(`${api.url}/things/2`)).status).toBe(503);
    expect((await fetch(`${api.url}/things/2`)).status).toBe(503);
    expect((await fetch(`${api.url}/things/2`)).status).toBe(200);
    for (const status of [401, 403, 404, 500, 502]) {
      api.inject({ status, body: { message: `custom ${status}` } });
      const res = await fetch(`${api.url}/things/3`);
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ message: `custom ${status}` });
    }
  });

  it('adds latency and can hang a request until it is aborted', async () => {
    api.latency(150, { path: '/things/slow' });
    const t0 = Date.now();
    await fetch(`${api.url}/things/slow`);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    api.resetFaults();
    api.inject({ status: 200, hang: true });
    await expect(fetch(`${api.url}/things/x`, { signal: AbortSignal.timeout(200) })).rejects.toThrow();
    expect((await fetch(`${api.url}/things/x`)).status).toBe(200);
  });
});

describe('vendor fake toolkit', () => {
  let vendor: FakeVendor<string | undefined>;
  beforeAll(async () => {
    vendor = await startFakeVendor<string | undefined>({
      vendor: 'acme',
      prefix: '/v1',
      authenticate: (req) => {
        const token = req.headers.authorization;
        if (token && token !== 'Bearer good')
          throw new Reply({ status: 401, body: { message: 'bad token' } });
        return token ? 'alice' : undefined;
      },
      headers: (_req, who) => ({ 'x-acme-user': who ?? 'anonymous' }),
    });
    vendor.route('GET', '/items/:id', (req, who) => {
      if (req.params.id === 'gone') throw new Reply({ status: 404, body: { message: 'gone' } });
      return { body: { id: req.params.id, who }, headers: { 'x-acme-user': 'handler wins' } };
    });
    vendor.route('GET', '/plain', () => ({ raw: 'hi', headers: { 'Content-Type': 'text/plain' } }));
  });
  afterAll(() => vendor.close());

  it('authenticates, adds vendor headers to every reply (refusals too), turns thrown replies into replies', async () => {
    expect(vendor.routes).toEqual([
      ['GET', '/items/{id}'],
      ['GET', '/plain'],
    ]);
    const ok = await fetch(`${vendor.url}/items/1`, { headers: { authorization: 'Bearer good' } });
    expect(await ok.json()).toEqual({ id: '1', who: 'alice' });
    expect(ok.headers.get('x-acme-user')).toBe('handler wins');
    const refused = await fetch(`${vendor.url}/items/1`, { headers: { authorization: 'Bearer bad' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-acme-user')).toBe('anonymous');
    const gone = await fetch(`${vendor.url}/items/gone`);
    expect([gone.status, await gone.json(), gone.headers.get('x-acme-user')]).toEqual([
      404,
      { message: 'gone' },
      'anonymous',
    ]);
  });

  it('records every reply (status, headers, body) next to its request', async () => {
    vendor.api.clearRequests();
    await fetch(`${vendor.url}/items/2`);
    await fetch(`${vendor.url}/plain`);
    vendor.api.inject({ status: 503 });
    await fetch(`${vendor.url}/items/3`);
    const [json, plain, fault] = vendor.api.requests;
    expect(json?.reply).toEqual({
      status: 200,
      headers: { 'x-acme-user': 'handler wins', 'content-type': 'application/json; charset=utf-8' },
      body: { id: '2' },
    });
    expect(plain?.reply).toEqual({
      status: 200,
      headers: { 'x-acme-user': 'anonymous', 'content-type': 'text/plain' },
      raw: 'hi',
    });
    expect(fault?.reply).toMatchObject({
      status: 503,
      body: { message: 'Service Unavailable' },
      fault: true,
    });
  });

  it('appends each exchange of a vendor fake to the run traffic directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-traffic-test-'));
    const before = process.env[TRAFFIC_DIR_ENV];
    process.env[TRAFFIC_DIR_ENV] = dir;
    try {
      await fetch(`${vendor.url}/items/4?x=1`);
      await fetch(`${vendor.url}/nowhere`);
    } finally {
      if (before === undefined) delete process.env[TRAFFIC_DIR_ENV];
      else process.env[TRAFFIC_DIR_ENV] = before;
    }
    expect(readTraffic(dir)).toEqual([
      {
        vendor: 'acme',
        method: 'GET',
        route: '/items/:id',
        target: '/items/4?x=1',
        status: 200,
        headers: { 'x-acme-user': 'handler wins', 'content-type': 'application/json; charset=utf-8' },
        body: { id: '4' },
      },
      {
        vendor: 'acme',
        method: 'GET',
        target: '/nowhere',
        status: 404,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: { message: 'Not Found' },
      },
    ]);
    rmSync(dir, { recursive: true });
  });
});

describe('paging helpers', () => {
  const items = Array.from({ length: 7 }, (_, i) => i + 1);
  const request = (query: string) =>
    ({ rawPath: '/api/v3/things', rawQuery: query, query: new URLSearchParams(query) }) as FakeRequest;

  it('linkPage: numbered pages with a GitHub-style Link header that keeps the query', () => {
    const page = linkPage(request('state=all&per_page=3&page=2'), items, { origin: 'http://h' });
    expect(page).toMatchObject({ items: [4, 5, 6], page: 2, perPage: 3, last: 3, total: 7 });
    expect(page.headers.link).toBe(
      [
        '<http://h/api/v3/things?state=all&per_page=3&page=1>; rel="prev"',
        '<http://h/api/v3/things?state=all&per_page=3&page=3>; rel="next"',
        '<http://h/api/v3/things?state=all&per_page=3&page=3>; rel="last"',
        '<http://h/api/v3/things?state=all&per_page=3&page=1>; rel="first"',
      ].join(', '),
    );
    expect(linkPage(request(''), items, { origin: 'http://h' }).headers).toEqual({});
    expect(linkPage(request('per_page=500'), items, { origin: 'http://h', maxPerPage: 5 }).perPage).toBe(5);
    expect(linkPage(request(''), items, { origin: 'http://h', defaultPerPage: 2 }).last).toBe(4);
  });

  it('cursorPage: opaque next tokens until the last page; a forged token gets the vendor reply', () => {
    const invalid = () => ({ status: 200, body: { ok: false, error: 'invalid_cursor' } });
    const first = cursorPage(items, { cursor: undefined, limit: 3, defaultLimit: 100, invalid });
    expect(first.items).toEqual([1, 2, 3]);
    const second = cursorPage(items, { cursor: first.next, limit: 3, defaultLimit: 100, invalid });
    expect(second.items).toEqual([4, 5, 6]);
    const last = cursorPage(items, { cursor: second.next, limit: 3, defaultLimit: 100, invalid });
    expect(last).toEqual({ items: [7], next: undefined });
    expect(
      cursorPage(items, { cursor: '', limit: undefined, defaultLimit: 5, maxLimit: 4, invalid }).items,
    ).toEqual([1, 2, 3, 4]);
    for (const forged of ['3', Buffer.from('fake-cursor:99').toString('base64url')]) {
      try {
        cursorPage(items, { cursor: forged, limit: 3, defaultLimit: 100, invalid });
        expect.unreachable();
      } catch (error) {
        expect((error as Reply).reply).toEqual(invalid());
      }
    }
  });

  it('offsetPage: a clamped window and whether more follow', () => {
    expect(offsetPage(items, 5, 2)).toEqual({ items: [6, 7], offset: 5, limit: 2, total: 7, more: false });
    expect(offsetPage(items, -1, 50, 3)).toEqual({
      items: [1, 2, 3],
      offset: 0,
      limit: 3,
      total: 7,
      more: true,
    });
  });
});

describe('FakeApi.rootRoute', () => {
  it('answers a path outside the prefix and keeps it out of the recorded traffic', async () => {
    const traffic = recordTraffic('fake-api-root-');
    const api = await startFakeApi({ prefix: '/api/v3', vendor: 'demo' });
    try {
      api.route('GET', '/things', () => ({ body: { inside: true } }));
      api.rootRoute('POST', '/api/graphql', (req) => ({ body: { echoed: JSON.parse(req.body) } }));
      const origin = new URL(api.url).origin;
      const root = await fetch(`${origin}/api/graphql`, { method: 'POST', body: '{"q":1}' });
      expect(await root.json()).toEqual({ echoed: { q: 1 } });
      expect((await fetch(`${origin}/api/v3/things`)).status).toBe(200);
      expect((await fetch(`${origin}/api/v3/graphql`, { method: 'POST' })).status).toBe(404);
      expect(api.requests.map((r) => r.rawPath)).toEqual([
        '/api/graphql',
        '/api/v3/things',
        '/api/v3/graphql',
      ]);
      expect(traffic.read().map((x) => x.target)).toEqual(['/things', '/graphql']);
    } finally {
      await api.close();
      traffic.stop();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileRoute, type FakeApi, startFakeApi } from '../src/fake-api/index.js';

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

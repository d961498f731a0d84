/**
 * Pacing and rate limits against the fake Brave, which enforces its plan like Brave (cases SE-01
 * … SE-03): one queue per key for every call and sub-request, the pace read from the
 * X-RateLimit-* headers, 429s waited per Retry-After within the budget, a spent quota said plainly.
 */
import { callChecked, callOk, structured } from '@refmcp/test-harness';
import { type FakeBrave, FREE_PLAN, locationRef, PAID_PLAN, poi } from '@refmcp/test-harness/fakes/brave';
import { afterEach, describe, expect, it } from 'vitest';
import { BRAVE_KEY, startBrave, startServer } from './support.js';

let brave: FakeBrave | undefined;
afterEach(async () => {
  await brave?.close();
  brave = undefined;
});

/** Every 429 the fake sent was followed by a request no sooner than its Retry-After. */
function retryAftersHonoured(b: FakeBrave): void {
  const reqs = b.api.requests;
  reqs.forEach((r, i) => {
    if (r.status !== 429) return;
    const wait = Number(r.reply?.headers['retry-after'] ?? '0') * 1000;
    const next = reqs[i + 1];
    if (next) expect(next.at - r.at).toBeGreaterThanOrEqual(wait - 50);
  });
}

describe('SE-01 local search does not trip over itself', () => {
  it('SE-01 returns the three places from one web search and both lookups with the three ids', async () => {
    brave = await startBrave();
    const q = 'pizza near Central Park';
    brave.scene.locations.set(q, [
      locationRef('loc1', 'Joe'),
      locationRef('loc2', 'Lou'),
      locationRef('loc3', 'Mo'),
    ]);
    brave.scene.pois.set('loc1', poi('loc1', "Joe's Pizza", '1 Broadway', '+1 212 555 0101', 4.5));
    brave.scene.pois.set('loc2', poi('loc2', "Lou's Slice", '2 Broadway', '+1 212 555 0102', 4.1));
    brave.scene.pois.set('loc3', poi('loc3', "Mo's Pies", '3 Broadway', '+1 212 555 0103', 3.9));
    for (const id of ['loc1', 'loc2', 'loc3'])
      brave.scene.descriptions.set(id, `Slices by the park (${id}).`);
    const conn = await startServer(brave);
    try {
      const result = await callChecked(conn, 'brave_local_search', { query: q, count: 3 });
      expect(result.isError).toBeFalsy();
      const places = structured<{ places: { name: string; address?: string; description?: string }[] }>(
        result,
      ).places;
      expect(places.map((p) => p.name)).toEqual(["Joe's Pizza", "Lou's Slice", "Mo's Pies"]);
      expect(
        places.every((p) => p.address?.includes('Broadway') && p.description?.startsWith('Slices')),
      ).toBe(true);
      expect(result.text).not.toContain('Rate limit exceeded');
      const paths = brave.api.requests.filter((r) => r.status === 200).map((r) => r.path);
      expect(paths[0]).toBe('/web/search');
      expect(paths.slice(1).sort()).toEqual(['/local/descriptions', '/local/pois']);
      for (const r of brave.api.requests.filter((x) => x.path.startsWith('/local/')))
        expect(r.query.getAll('ids')).toEqual(['loc1', 'loc2', 'loc3']);
      retryAftersHonoured(brave);
    } finally {
      await conn.close();
    }
  });

  it('SE-01 with no location in the answer, web results come back instead', async () => {
    brave = await startBrave();
    const conn = await startServer(brave);
    try {
      const result = await callChecked(conn, 'brave_local_search', { query: 'pizza', count: 3 });
      expect(result.isError).toBeFalsy();
      const got = structured<{ places: unknown[]; results: { title: string }[] }>(result);
      expect(got.places).toEqual([]);
      expect(got.results.map((r) => r.title)).toEqual([
        'Result 1 for pizza',
        'Result 2 for pizza',
        'Result 3 for pizza',
      ]);
      expect(brave.api.requests.map((r) => r.path)).toEqual(['/web/search']);
    } finally {
      await conn.close();
    }
  });
});

describe('SE-02 parallel calls share one queue, paced by the plan', () => {
  it('SE-02 five concurrent searches on the free plan all succeed; none sent after the first reply is refused', async () => {
    brave = await startBrave();
    const conn = await startServer(brave);
    try {
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map((n) => callChecked(conn, 'brave_web_search', { query: `q${n}` })),
      );
      expect(results.map((r) => r.isError ?? false)).toEqual([false, false, false, false, false]);
      const reqs = brave.api.requests;
      const firstReply = reqs[0]?.at ?? 0;
      expect(reqs.filter((r) => r.at > firstReply && r.status === 429)).toEqual([]);
      expect(reqs.filter((r) => r.status === 200)).toHaveLength(5);
    } finally {
      await conn.close();
    }
  });

  it('SE-02 with paid-plan headers the five are not spaced at the free plan pace: the pace comes from the headers', async () => {
    brave = await startBrave();
    brave.setPlan({ ...PAID_PLAN });
    const conn = await startServer(brave);
    try {
      await callOk(conn, 'brave_web_search', { query: 'warm-up' });
      await Promise.all([1, 2, 3, 4, 5].map((n) => callOk(conn, 'brave_web_search', { query: `q${n}` })));
      expect(brave.api.requests.filter((r) => r.status === 429)).toEqual([]);
      // Paced by the free plan, every one of the five would follow the one before by a second or
      // more; paced by the paid plan's headers (50 a second) they go out 20 ms apart. The closest
      // pair is compared with the free plan's second: only a stall of that long before each of the
      // five sends, not a merely busy machine, could make a correct server fail it.
      const at = brave.api.requests.slice(1).map((r) => r.at);
      const gaps = at.slice(1).map((t, i) => t - (at[i] ?? 0));
      expect(gaps).toHaveLength(4);
      expect(Math.min(...gaps), gaps.join(', ')).toBeLessThan(1000 / FREE_PLAN.perSecond);
    } finally {
      await conn.close();
    }
  });
});

describe('SE-03 429s and an empty quota', () => {
  it('SE-03 two 429s with Retry-After: 1, then success after three requests a second apart', async () => {
    brave = await startBrave();
    brave.api.inject({ status: 429, headers: { 'retry-after': '1' }, times: 2 });
    const conn = await startServer(brave);
    try {
      await callOk(conn, 'brave_web_search', { query: 'mcp' });
      const reqs = brave.api.requests;
      expect(reqs).toHaveLength(3);
      expect(reqs.map((r) => r.status)).toEqual([429, 429, 200]);
      expect((reqs[1]?.at ?? 0) - (reqs[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
      expect((reqs[2]?.at ?? 0) - (reqs[1]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    } finally {
      await conn.close();
    }
  });

  it('SE-03 Retry-After: 3600 is an error within the wait budget saying to retry in about an hour', async () => {
    brave = await startBrave();
    brave.api.inject({ status: 429, headers: { 'retry-after': '3600' }, times: Number.POSITIVE_INFINITY });
    const conn = await startServer(brave);
    try {
      const started = Date.now();
      const result = await callChecked(conn, 'brave_web_search', { query: 'mcp' });
      expect(result.isError).toBe(true);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(result.text).toMatch(/rate limit/i);
      expect(result.text).toMatch(/about an hour/);
      expect(result.text).not.toContain(BRAVE_KEY);
      expect(result.text).not.toMatch(/[{}]/);
    } finally {
      await conn.close();
    }
  });

  it('SE-03 a spent monthly quota names the quota and when it resets, without a retry loop', async () => {
    brave = await startBrave();
    brave.setPlan({ usedThisMonth: 15000, monthResetSeconds: 86400 });
    const conn = await startServer(brave);
    try {
      const first = await callChecked(conn, 'brave_web_search', { query: 'mcp' });
      expect(first.isError).toBe(true);
      expect(first.text).toMatch(/monthly quota/);
      expect(first.text).toMatch(/resets in about a day/);
      expect(first.text).not.toContain(BRAVE_KEY);
      expect(first.text).not.toMatch(/[{}]/);
      expect(brave.api.requests).toHaveLength(1);
      const again = await callChecked(conn, 'brave_web_search', { query: 'mcp' });
      expect(again.text).toMatch(/monthly quota/);
      expect(brave.api.requests).toHaveLength(1);
    } finally {
      await conn.close();
    }
  });
});

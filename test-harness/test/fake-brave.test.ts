/**
 * The fake Brave against the JSON Schemas written from Brave's response-model docs
 * (specs/brave): every route described, every body of every route (and the error envelope and
 * the rate-limit headers) valid; and the plan it enforces.
 */

import { validateJson } from '@refmcp/shared/json-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAVE_KEY, type FakeBrave, locationRef, poi, startFakeBrave } from '../src/fakes/brave/index.js';
import { braveSpec } from '../src/fakes/brave/spec.js';
import { undescribedRoutes, validateReply } from '../src/spec/index.js';

let brave: FakeBrave;
beforeAll(async () => {
  brave = await startFakeBrave();
  brave.scene.locations.set('pizza', [locationRef('l1', 'Joe')]);
  brave.scene.pois.set('l1', poi('l1', "Joe's", '1 Broadway', '+1 212 555 0101', 4.5));
  brave.scene.descriptions.set('l1', 'Slices.');
});
afterAll(() => brave.close());

const get = (path: string, key = BRAVE_KEY) =>
  fetch(`${brave.apiUrl}${path}`, { headers: { 'x-subscription-token': key } });

describe('fake Brave', () => {
  it('serves only described operations (undescribedRoutes empty)', () => {
    expect(undescribedRoutes(brave.routes, braveSpec())).toEqual([]);
  });

  it('every route answers bodies and headers that validate against specs/brave', async () => {
    brave.setPlan({ enforce: false });
    const spec = braveSpec();
    const headerSchema = spec.headerSchema?.('GET', '/web/search', 200);
    for (const [path, template] of [
      ['/web/search?q=pizza&count=5', '/web/search'],
      ['/local/pois?ids=l1', '/local/pois'],
      ['/local/descriptions?ids=l1', '/local/descriptions'],
      ['/news/search?q=mcp&count=3', '/news/search'],
      ['/videos/search?q=mcp&count=3', '/videos/search'],
      ['/images/search?q=mcp&count=3', '/images/search'],
    ] as const) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(validateReply(spec, 'GET', template, 200, await res.json())).toEqual([]);
      expect(validateJson(headerSchema ?? {}, Object.fromEntries(res.headers))).toEqual([]);
    }
    const refused = await get('/web/search?q=x', 'WRONG');
    expect(refused.status).toBe(422);
    expect(validateReply(spec, 'GET', '/web/search', 422, await refused.json())).toEqual([]);
  });

  it('enforces the free plan: a second request within the second is 429 with Retry-After; the headers count down', async () => {
    brave.setPlan({ perSecond: 1, perMonth: 15000, usedThisMonth: 0, enforce: true });
    const first = await get('/web/search?q=a');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('0, 14999');
    const second = await get('/web/search?q=b');
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(validateReply(braveSpec(), 'GET', '/web/search', 429, await second.json())).toEqual([]);
  });
});

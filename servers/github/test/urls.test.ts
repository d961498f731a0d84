/**
 * Correct URLs (cases GH-01, GH-02): owner/repo/branch validated, every path segment encoded,
 * "." / ".." refused before any request, query values sent exactly — asserted on the requests the
 * fake GitHub recorded.
 */

import { callChecked, structured } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gh: FakeGitHub;
let conn: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  ({ gh } = await startScene());
  conn = await startServer(gh);
});
afterAll(async () => {
  await conn.close();
  await gh.close();
});

describe('GH-01 path traversal into other endpoints', () => {
  it('GH-01 get_file_contents and create_or_update_file refuse ../ paths and send nothing outside contents/', async () => {
    gh.api.clearRequests();
    const read = await callChecked(conn, 'get_file_contents', {
      owner: 'acme',
      repo: 'demo',
      path: '../../../user',
    });
    expect(read.isError).toBe(true);
    expect(read.text).toMatch(/path: "\." and "\.\." segments are not allowed/);
    const write = await callChecked(conn, 'create_or_update_file', {
      owner: 'acme',
      repo: 'demo',
      path: '../../../user/repos',
      content: 'x',
      message: 'm',
      branch: 'main',
    });
    expect(write.isError).toBe(true);
    expect(write.text).toMatch(/path: "\." and "\.\." segments are not allowed/);
    for (const path of ['a/./b', 'a/../../b', '..', 'a/%2e%2e/b']) {
      const r = await callChecked(conn, 'get_file_contents', { owner: 'acme', repo: 'demo', path });
      // "%2e%2e" is a literal file name (percent signs and all): it is encoded, not decoded.
      if (path.includes('%')) expect(r.isError).toBe(true);
      else expect(r.text, path).toMatch(/not allowed/);
    }
    for (const r of gh.api.requests)
      expect(r.path.startsWith('/repos/acme/demo/contents/'), r.rawPath).toBe(true);
    expect(gh.api.requests.map((r) => r.rawPath)).toEqual([
      '/api/v3/repos/acme/demo/contents/a/%252e%252e/b',
    ]);
  });

  it('GH-01 "dir with space/a#b?.md" works: each segment encoded, "/" kept', async () => {
    gh.api.clearRequests();
    const r = await callChecked(conn, 'get_file_contents', {
      owner: 'acme',
      repo: 'demo',
      path: 'dir with space/a#b?.md',
    });
    expect(r.isError).toBeFalsy();
    expect(structured(r)).toMatchObject({
      type: 'file',
      path: 'dir with space/a#b?.md',
      content: 'odd name\n',
    });
    expect(gh.api.requests.map((q) => [q.rawPath, q.rawQuery])).toEqual([
      ['/api/v3/repos/acme/demo/contents/dir%20with%20space/a%23b%3F.md', ''],
    ]);
  });

  it('owner, repo and branch are validated before any request, naming the argument', async () => {
    gh.api.clearRequests();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ owner: '../x', repo: 'demo', path: 'a' }, /owner/],
      [{ owner: 'acme', repo: '..', path: 'a' }, /repo/],
      [{ owner: 'acme', repo: 'de/mo', path: 'a' }, /repo/],
      [{ owner: 'acme', repo: 'demo', path: 'a', branch: 'a..b' }, /branch/],
      [{ owner: 'acme', repo: 'demo', path: 'a', branch: 'x y' }, /branch/],
    ];
    for (const [args, name] of cases) {
      const r = await callChecked(conn, 'get_file_contents', args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text).toMatch(name);
    }
    expect(gh.api.requests).toEqual([]);
  });
});

describe('GH-02 query injection', () => {
  it('GH-02 branch "main&per_page=100" is sent as exactly one ref value, nothing added', async () => {
    gh.api.clearRequests();
    const r = await callChecked(conn, 'get_file_contents', {
      owner: 'acme',
      repo: 'demo',
      path: 'README.md',
      branch: 'main&per_page=100',
    });
    expect(r.isError).toBe(true); // no such ref on the fake
    const [req] = gh.api.requests;
    expect(req?.path).toBe('/repos/acme/demo/contents/README.md');
    expect(req?.rawQuery).toBe('ref=main%26per_page%3D100');
    expect([...(req?.query.entries() ?? [])]).toEqual([['ref', 'main&per_page=100']]);
  });

  it('search queries keep "+", "&" and qualifiers intact', async () => {
    gh.api.clearRequests();
    await callChecked(conn, 'search_issues', { q: 'c++ & build repo:acme/demo', per_page: 5 });
    const [req] = gh.api.requests;
    expect(req?.path).toBe('/search/issues');
    expect([...(req?.query.entries() ?? [])]).toEqual([
      ['q', 'c++ & build repo:acme/demo'],
      ['page', '1'],
      ['per_page', '5'],
    ]);
  });

  it('labels and other list filters are sent as single, exactly-encoded values', async () => {
    gh.api.clearRequests();
    await callChecked(conn, 'list_issues', {
      owner: 'acme',
      repo: 'demo',
      labels: ['bug', 'a&b=c'],
      state: 'all',
    });
    expect(gh.api.requests[0]?.query.get('labels')).toBe('bug,a&b=c');
    expect(gh.api.requests[0]?.query.getAll('state')).toEqual(['all']);
  });
});

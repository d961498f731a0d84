/**
 * Issue 29, code search on GitLab: search_project_code asks GitLab's project search in the blobs
 * scope and returns fragments (path, ref, first line) as untrusted file content, paged; a project
 * outside --projects is refused before any request.
 */
import { callChecked } from '@refmcp/test-harness';
import type { FakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gl: FakeGitLab;
let conn: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  ({ gl } = await startScene());
  conn = await startServer(gl);
});
afterAll(async () => {
  await conn.close();
  await gl.close();
});

type Hits = {
  results: Array<{ path: string; ref?: string; startline?: number; data: string }>;
  hasMore: boolean;
  nextPage?: number;
};

describe('search_project_code', () => {
  it('returns fragments with path, ref and start line from the blobs scope', async () => {
    gl.api.clearRequests();
    const r = await callChecked(conn, 'search_project_code', {
      project_id: 'grp/proj',
      search: 'process.env',
      ref: 'feat',
    });
    expect(r.isError, r.text).toBeFalsy();
    const { results } = r.structuredContent as Hits;
    expect(results).toEqual([
      {
        path: 'src/app.ts',
        ref: 'feat',
        startline: 1,
        data: 'export const answer = Number(process.env.ANSWER ?? 42);\n\n',
      },
    ]);
    const q = gl.api.requests.at(-1)?.query;
    expect([q?.get('scope'), q?.get('search'), q?.get('ref')]).toEqual(['blobs', 'process.env', 'feat']);
    expect(r.text).toContain('src/app.ts:1 @ feat');
  });

  it('pages with page/per_page', async () => {
    const first = await callChecked(conn, 'search_project_code', {
      project_id: 'grp/proj',
      search: 'export',
      ref: 'feat',
      per_page: 1,
    });
    const p1 = first.structuredContent as Hits;
    expect([p1.results.map((x) => x.path), p1.hasMore, p1.nextPage]).toEqual([['src/app.ts'], true, 2]);
    const second = await callChecked(conn, 'search_project_code', {
      project_id: 'grp/proj',
      search: 'export',
      ref: 'feat',
      per_page: 1,
      page: 2,
    });
    const p2 = second.structuredContent as Hits;
    expect([p2.results.map((x) => x.path), p2.hasMore]).toEqual([['src/new.ts'], false]);
  });

  it('neutralises hidden text in a fragment and bounds it', async () => {
    const p = gl.state.project('grp/proj');
    if (!p) throw new Error('no grp/proj');
    gl.state.commit(p, 'main', { 'big.txt': `needle\u200B ${'x'.repeat(5000)}\n` }, 'big', p.creatorId);
    const r = await callChecked(conn, 'search_project_code', { project_id: 'grp/proj', search: 'needle' });
    const hit = (r.structuredContent as Hits & { neutralized?: string }).results[0];
    expect(hit?.data).not.toContain('\u200B');
    expect(Buffer.byteLength(hit?.data ?? '')).toBeLessThan(2300);
    expect(hit?.data).toMatch(/more bytes/);
    expect((r.structuredContent as { neutralized?: string }).neutralized).toBeTruthy();
  });

  it('--projects refuses another project before any request', async () => {
    const scoped = await startServer(gl, ['--projects', 'grp/sub/*']);
    gl.api.clearRequests();
    try {
      const r = await callChecked(scoped, 'search_project_code', { project_id: 'grp/proj', search: 'x' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('grp/proj is outside the projects this server may access');
      expect(gl.api.requests).toEqual([]);
    } finally {
      await scoped.close();
    }
  });
});

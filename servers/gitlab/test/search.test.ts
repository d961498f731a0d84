/**
 * Issue 29, code search on GitLab: search_project_code asks GitLab's project search in the blobs
 * scope and returns fragments (path, ref, first line) as untrusted file content, paged; a project
 * outside --projects is refused before any request. Which GitLab search ran (exact code search,
 * advanced, basic) is chosen from GitLab's 400s and said; search_group_code searches a group with
 * advanced or exact code search, refused under --projects unless the group holds allowed projects,
 * whose other projects' results are left out.
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
  searchType: string;
  omitted?: number;
  results: Array<{ project?: string; path: string; ref?: string; startline?: number; data: string }>;
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

describe('which search runs', () => {
  const searches = () => gl.api.requests.filter((r) => r.path.endsWith('/search'));

  it('a basic-only instance: zoekt and advanced are refused by GitLab, basic answers, and is remembered', async () => {
    const fresh = await startServer(gl);
    try {
      gl.api.clearRequests();
      const r = await callChecked(fresh, 'search_project_code', { project_id: 'grp/proj', search: 'answer' });
      expect(r.isError, r.text).toBeFalsy();
      expect((r.structuredContent as Hits).searchType).toBe('basic');
      expect(r.text).toContain('Basic search:');
      expect(searches().map((q) => q.query.get('search_type'))).toEqual(['zoekt', 'advanced', 'basic']);
      expect(searches()[0]?.query.get('regex')).toBe('false');
      gl.api.clearRequests();
      await callChecked(fresh, 'search_project_code', { project_id: 'grp/sub/proj', search: 'answer' });
      expect(searches().map((q) => q.query.get('search_type'))).toEqual(['basic']);
      gl.api.clearRequests();
      await callChecked(fresh, 'search_project_code', { project_id: 'grp/proj', search: 'x', ref: 'feat' });
      expect(searches().map((q) => q.query.get('search_type'))).toEqual(['basic']);
    } finally {
      await fresh.close();
    }
  });

  it('the refused probes of one call share one --search-interval slot (no wait between them)', async () => {
    // With a 10-minute interval, a probe that waited for its own slot would never answer within
    // the test; the first search of a process has no previous slot to wait for.
    const paced = await startServer(gl, ['--search-interval', '600000']);
    try {
      gl.api.clearRequests();
      const r = await callChecked(paced, 'search_project_code', { project_id: 'grp/proj', search: 'answer' });
      expect(r.isError, r.text).toBeFalsy();
      expect((r.structuredContent as Hits).searchType).toBe('basic');
      expect(searches().map((q) => q.query.get('search_type'))).toEqual(['zoekt', 'advanced', 'basic']);
    } finally {
      await paced.close();
    }
  });

  it('an instance with exact code search uses it (literal, regex=false) and says so', async () => {
    gl.codeSearch.zoekt = true;
    const fresh = await startServer(gl);
    try {
      gl.api.clearRequests();
      const r = await callChecked(fresh, 'search_project_code', { project_id: 'grp/proj', search: 'answer' });
      expect((r.structuredContent as Hits).searchType).toBe('zoekt');
      expect(r.text).toContain('Exact code search (zoekt):');
      expect(searches().map((q) => [q.query.get('search_type'), q.query.get('regex')])).toEqual([
        ['zoekt', 'false'],
      ]);
    } finally {
      gl.codeSearch.zoekt = false;
      await fresh.close();
    }
  });
});

describe('search_group_code', () => {
  const start = (args: string[] = []) => startServer(gl, ['--toolsets', 'groups', ...args]);

  it('is off by default (toolset groups)', async () => {
    const tools = await conn.client.listTools();
    expect(tools.tools.map((t) => t.name)).not.toContain('search_group_code');
  });

  it('searches every project of the group and its subgroups with advanced search, naming each project', async () => {
    gl.codeSearch.advanced = true;
    const s = await start();
    try {
      gl.api.clearRequests();
      const r = await callChecked(s, 'search_group_code', { group_id: 'grp', search: 'odd name' });
      expect(r.isError, r.text).toBeFalsy();
      const hits = r.structuredContent as Hits;
      expect(hits.searchType).toBe('advanced');
      expect(new Set(hits.results.map((h) => h.project))).toEqual(new Set(['grp/proj', 'grp/sub/proj']));
      expect(r.text).toContain('Advanced search:');
      expect(r.text).toContain('grp/sub/proj:dir/a b#1?.md:1 @ main');
      const group = gl.api.requests.find((q) => q.path.endsWith('/groups/grp/search'));
      expect(group?.query.get('scope')).toBe('blobs');
      const paged = await callChecked(s, 'search_group_code', {
        group_id: 'grp',
        search: 'odd name',
        per_page: 1,
      });
      expect((paged.structuredContent as Hits).hasMore).toBe(true);
    } finally {
      gl.codeSearch.advanced = false;
      await s.close();
    }
  });

  it('without advanced or exact code search, says so and what to do instead', async () => {
    const s = await start();
    try {
      const r = await callChecked(s, 'search_group_code', { group_id: 'grp', search: 'odd name' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('Group code search needs advanced or exact code search');
      expect(r.text).toContain('Zoekt is not available');
    } finally {
      await s.close();
    }
  });

  it('--projects: a group holding no allowed project is refused before any request; others are filtered', async () => {
    gl.codeSearch.advanced = true;
    const s = await start(['--projects', 'grp/sub/*']);
    try {
      gl.api.clearRequests();
      for (const group_id of ['upstream', '42', 'grpx']) {
        const r = await callChecked(s, 'search_group_code', { group_id, search: 'odd name' });
        expect(r.isError, group_id).toBe(true);
      }
      expect(gl.api.requests).toEqual([]);
      const r = await callChecked(s, 'search_group_code', { group_id: 'grp', search: 'odd name' });
      expect(r.isError, r.text).toBeFalsy();
      const hits = r.structuredContent as Hits;
      expect(hits.results.length).toBeGreaterThan(0);
      expect(hits.results.every((h) => h.project === 'grp/sub/proj')).toBe(true);
      expect(hits.omitted).toBeGreaterThan(0);
      expect(r.text).not.toContain('grp/proj:');
      expect(r.text).toContain('from projects outside --projects left out');
      const inside = await callChecked(s, 'search_group_code', { group_id: 'grp/sub', search: 'odd name' });
      expect((inside.structuredContent as Hits).omitted).toBeUndefined();
    } finally {
      gl.codeSearch.advanced = false;
      await s.close();
    }
  });
});

/**
 * The issue and merge request workflows beyond the reference: update and comment on an issue,
 * approve and merge a merge request (a stale sha is GitLab's 409 with its words), get_me and the
 * instance version; --search-interval pacing project searches; a 429 with only RateLimit-Reset.
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
const project = { project_id: 'grp/proj' };

describe('context', () => {
  it("get_me names the token's user and get_version the instance", async () => {
    expect((await callChecked(conn, 'get_me')).structuredContent).toMatchObject({ username: 'tester' });
    const v = await callChecked(conn, 'get_version');
    expect((v.structuredContent as { version: string }).version).toMatch(/^\d+\.\d+/);
  });
});

describe('issues', () => {
  it('update_issue changes only the given fields and closes; add_issue_note adds a note listed afterwards', async () => {
    gl.api.clearRequests();
    const r = await callChecked(conn, 'update_issue', {
      ...project,
      issue_iid: 2,
      labels: ['docs', 'p1'],
      state_event: 'close',
    });
    expect(r.structuredContent).toMatchObject({ issue: { iid: 2, state: 'closed', labels: ['docs', 'p1'] } });
    const put = gl.api.requests.find((q) => q.method === 'PUT');
    expect(JSON.parse(put?.body ?? '{}')).toEqual({ labels: 'docs,p1', state_event: 'close' });
    const note = await callChecked(conn, 'add_issue_note', {
      ...project,
      issue_iid: 2,
      body: 'Closing: done.',
    });
    expect(note.isError).toBeFalsy();
    const notes = await callChecked(conn, 'list_issue_notes', { ...project, issue_iid: 2 });
    expect(notes.text).toContain('Closing: done.');
  });
});

describe('merge requests', () => {
  it('get_merge_request_diffs with file_path gives that file only', async () => {
    const r = await callChecked(conn, 'get_merge_request_diffs', {
      ...project,
      merge_request_iid: 1,
      file_path: 'src/new.ts',
    });
    expect((r.structuredContent as { files: { path: string; status: string }[] }).files).toEqual([
      expect.objectContaining({ path: 'src/new.ts', status: 'added' }),
    ]);
    expect(gl.api.requests.at(-1)?.path).toMatch(/\/merge_requests\/1\/diffs$/);
  });

  it("approve, then merge: a stale sha is GitLab's 409 in its words; the head sha merges", async () => {
    const approved = await callChecked(conn, 'approve_merge_request', { ...project, merge_request_iid: 1 });
    expect(approved.isError).toBeFalsy();
    expect(approved.structuredContent).toMatchObject({ approvedBy: ['tester'] });
    const stale = await callChecked(conn, 'merge_merge_request', {
      ...project,
      merge_request_iid: 1,
      sha: '0'.repeat(40),
    });
    expect(stale.isError).toBe(true);
    expect(stale.text).toContain('409');
    expect(stale.text).toContain('SHA does not match HEAD of source branch');
    const mr = await callChecked(conn, 'get_merge_request', { ...project, merge_request_iid: 1 });
    const sha = (mr.structuredContent as { merge_request: { sha: string } }).merge_request.sha;
    const merged = await callChecked(conn, 'merge_merge_request', { ...project, merge_request_iid: 1, sha });
    expect(merged.isError).toBeFalsy();
    expect(merged.structuredContent).toMatchObject({ merge_request: { iid: 1, state: 'merged' } });
  });
});

describe('--search-interval', () => {
  it('paces project searches (GET /projects?search=…) but not other reads', async () => {
    const paced = await startServer(gl, ['--search-interval', '1500']);
    try {
      gl.api.clearRequests();
      for (const search of ['proj', 'sub']) {
        const r = await callChecked(paced, 'search_repositories', { search });
        expect(r.isError).toBeFalsy();
      }
      for (let i = 0; i < 2; i++)
        expect((await callChecked(paced, 'get_project', project)).isError).toBeFalsy();
      const at = (pick: (q: URLSearchParams) => boolean) =>
        gl.api.requests.filter((r) => r.path === '/projects' && pick(r.query)).map((r) => r.at);
      const searches = at((q) => q.has('search'));
      expect(searches).toHaveLength(2);
      expect((searches[1] ?? 0) - (searches[0] ?? 0)).toBeGreaterThanOrEqual(1000);
      const reads = gl.api.requests.filter((r) => r.path === '/projects/grp%2Fproj').map((r) => r.at);
      expect(reads).toHaveLength(2);
      expect((reads[1] ?? 0) - (reads[0] ?? 0)).toBeLessThan(1000);
    } finally {
      await paced.close();
    }
  });
});

describe('rate limits', () => {
  it('a read throttled with only RateLimit-Reset (no Retry-After) is waited out and answered', async () => {
    gl.api.clearRequests();
    gl.throttle({ match: { method: 'GET', path: '/projects/grp%2Fproj' }, retryAfter: null, resetIn: 2 });
    const started = Date.now();
    const r = await callChecked(conn, 'get_project', project);
    expect(r.isError).toBeFalsy();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const hits = gl.api.requests.filter((q) => q.path === '/projects/grp%2Fproj');
    expect(hits.map((q) => q.status)).toEqual([429, 200]);
  });
});

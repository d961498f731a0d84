/**
 * Writes: GL-05 nulls and missing fields in 201 answers are successes; GL-06 a write is sent
 * once (5xx → outcome unknown; 429 waited out within the budget or reported with when to
 * retry); GL-07 push_files updates existing files; GL-10 GitLab's message in errors; create_branch
 * on an empty repository or from a missing ref says which, and what to do.
 */
import { callChecked } from '@refmcp/test-harness';
import type { FakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gl: FakeGitLab;
beforeAll(async () => {
  ({ gl } = await startScene());
});
afterAll(() => gl.close());
afterEach(() => gl.resetFaults());

const ISSUE = { project_id: 'grp/proj', title: 'x' };
const MR = { project_id: 'grp/proj', title: 'x', source_branch: 'feat', target_branch: 'main' };
const posts = (path: RegExp) => gl.api.requests.filter((r) => r.method === 'POST' && path.test(r.path));

/** Stages a rewrite of the next matching write's JSON answer (after the write happened). */
function rewrite(path: RegExp, change: (body: Record<string, unknown>) => void) {
  gl.stage({
    match: { method: 'POST', path },
    when: 'after',
    reply: (_req, reply) => {
      const body = { ...(reply?.body as Record<string, unknown>) };
      change(body);
      return { ...reply, body };
    },
  });
}

describe('GL-05 nulls are not failures', () => {
  it('GL-05 create_issue, create_merge_request and fork_repository answered with nulls and gaps succeed, one POST each', async () => {
    const conn = await startServer(gl);
    gl.api.clearRequests();
    try {
      rewrite(/\/issues$/, (b) => {
        b.description = null;
        b.milestone = null;
        delete b.assignees;
      });
      const issue = await callChecked(conn, 'create_issue', ISSUE);
      expect(issue.isError).toBeFalsy();
      expect(issue.text).toMatch(/Created #\d+ \[opened\] x/);

      // The scene's !1 is open from feat: close it so that this one is not a duplicate (GL-10 is).
      await callChecked(conn, 'update_merge_request', {
        project_id: 'grp/proj',
        merge_request_iid: 1,
        state_event: 'close',
      });
      rewrite(/\/merge_requests$/, (b) => {
        b.diff_refs = null;
        delete b.merged_at;
      });
      const mr = await callChecked(conn, 'create_merge_request', MR);
      expect(mr.isError).toBeFalsy();
      expect(mr.text).toMatch(/Created !\d+ \[opened\] x/);

      rewrite(/\/fork$/, (b) => {
        b.owner = null;
      });
      const fork = await callChecked(conn, 'fork_repository', { project_id: 'grp/proj' });
      expect(fork.isError).toBeFalsy();
      expect(fork.text).toContain('Forked grp/proj → tester/proj');
      expect(posts(/\/issues$/)).toHaveLength(1);
      expect(posts(/\/merge_requests$/)).toHaveLength(1);
      expect(posts(/\/fork$/)).toHaveLength(1);
      // Close the new one again and reopen !1 for GL-10.
      const iid = (mr.structuredContent as { merge_request: { iid: number } }).merge_request.iid;
      await callChecked(conn, 'update_merge_request', {
        project_id: 'grp/proj',
        merge_request_iid: iid,
        state_event: 'close',
      });
      await callChecked(conn, 'update_merge_request', {
        project_id: 'grp/proj',
        merge_request_iid: 1,
        state_event: 'reopen',
      });
    } finally {
      await conn.close();
    }
  });
});

describe('GL-06 a write is sent once', () => {
  it('GL-06 a 502 after creating the issue and a 504 on the commit say the outcome is unknown; one POST each', async () => {
    const conn = await startServer(gl);
    gl.api.clearRequests();
    try {
      gl.stage({
        match: { method: 'POST', path: /\/issues$/ },
        when: 'after',
        reply: () => ({ status: 502, body: { message: '502 Bad Gateway' } }),
      });
      const issue = await callChecked(conn, 'create_issue', ISSUE);
      expect(issue.isError).toBe(true);
      expect(issue.text).toContain('GitLab API 502');
      expect(issue.text).toMatch(/outcome is unknown.*Check/);
      expect(posts(/\/issues$/)).toHaveLength(1);

      gl.stage({
        match: { method: 'POST', path: /\/repository\/commits$/ },
        reply: () => ({ status: 504, body: { message: '504 Gateway Timeout' } }),
      });
      const push = await callChecked(conn, 'push_files', {
        project_id: 'grp/proj',
        branch: 'main',
        commit_message: 'm',
        files: [{ file_path: 'README.md', content: 'v504' }],
      });
      expect(push.isError).toBe(true);
      expect(push.text).toMatch(/504.*outcome is unknown/s);
      expect(posts(/\/repository\/commits$/)).toHaveLength(1);
    } finally {
      await conn.close();
    }
  });

  it('GL-06 a 429 with Retry-After: 1 is waited out and resent once; Retry-After: 3600 fails fast saying when', async () => {
    const conn = await startServer(gl);
    gl.api.clearRequests();
    try {
      gl.throttle({ match: { method: 'POST', path: /\/issues$/ }, retryAfter: 1 });
      const started = Date.now();
      const ok = await callChecked(conn, 'create_issue', ISSUE);
      expect(ok.isError).toBeFalsy();
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(posts(/\/issues$/)).toHaveLength(2);

      gl.throttle({ match: { method: 'POST', path: /\/issues$/ }, retryAfter: 3600 });
      const limited = await callChecked(conn, 'create_issue', ISSUE);
      expect(limited.isError).toBe(true);
      expect(limited.text).toContain('rate limited');
      expect(limited.text).toMatch(/Retry after \S+ \(in 1\.0 h|in 60 min/);
      expect(posts(/\/issues$/)).toHaveLength(3);
    } finally {
      await conn.close();
    }
  });
});

describe('GL-07 push_files updates existing files', () => {
  it('GL-07 one commit: update for README.md on main, create for docs/new.md (only on dev); README then reads v2', async () => {
    const conn = await startServer(gl);
    gl.api.clearRequests();
    try {
      const r = await callChecked(conn, 'push_files', {
        project_id: 'grp/proj',
        branch: 'main',
        commit_message: 'm',
        files: [
          { file_path: 'README.md', content: 'v2' },
          { file_path: 'docs/new.md', content: 'new' },
        ],
      });
      expect(r.isError).toBeFalsy();
      const commits = posts(/\/repository\/commits$/);
      expect(commits).toHaveLength(1);
      const body = JSON.parse(commits[0]?.body ?? '{}');
      expect(body.branch).toBe('main');
      expect(body.actions.map((a: { action: string; file_path: string }) => [a.action, a.file_path])).toEqual(
        [
          ['update', 'README.md'],
          ['create', 'docs/new.md'],
        ],
      );
      expect(r.structuredContent).toMatchObject({ commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
      const readme = await callChecked(conn, 'get_file_contents', {
        project_id: 'grp/proj',
        file_path: 'README.md',
        ref: 'main',
      });
      expect(readme.structuredContent).toMatchObject({ content: 'v2' });
    } finally {
      await conn.close();
    }
  });
});

describe('GL-10 GitLab message in errors', () => {
  it("GL-10 400 string, 400 field map and 409 list messages are isError with status and GitLab's words", async () => {
    const conn = await startServer(gl);
    try {
      const branch = await callChecked(conn, 'create_branch', {
        project_id: 'grp/proj',
        branch: 'feat',
        ref: 'main',
      });
      expect(branch.isError).toBe(true);
      expect(branch.text).toContain('400');
      expect(branch.text).toContain('Branch already exists');

      gl.api.inject({
        status: 400,
        body: { message: { name: ['has already been taken'] } },
        match: { method: 'POST', path: '/projects' },
      });
      const repo = await callChecked(conn, 'create_repository', { name: 'demo' });
      expect(repo.isError).toBe(true);
      expect(repo.text).toContain('400');
      expect(repo.text).toContain('name has already been taken');

      const dup = await callChecked(conn, 'create_merge_request', MR);
      expect(dup.isError).toBe(true);
      expect(dup.text).toContain('409');
      expect(dup.text).toContain('Another open merge request already exists');
    } finally {
      await conn.close();
    }
  });
});

describe('create_branch without a starting point', () => {
  it('on an empty repository says so and how to make the first commit; a missing ref is named', async () => {
    const conn = await startServer(gl);
    try {
      for (const args of [{}, { ref: 'main' }]) {
        const r = await callChecked(conn, 'create_branch', {
          project_id: 'tester/empty',
          branch: 'feat',
          ...args,
        });
        expect(r.isError, JSON.stringify(args)).toBe(true);
        expect(r.text).toContain('tester/empty has an empty repository');
        expect(r.text).toContain('push_files');
      }
      const missing = await callChecked(conn, 'create_branch', {
        project_id: 'grp/proj',
        branch: 'feat-2',
        ref: 'no-such-ref',
      });
      expect(missing.isError).toBe(true);
      expect(missing.text).toContain('ref: "no-such-ref" is no branch, tag or commit of grp/proj');
      expect(missing.text).toContain('Invalid reference name');
      expect(missing.text).toContain('list_branches');
    } finally {
      await conn.close();
    }
  });
});

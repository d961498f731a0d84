/**
 * Issue 29 (pending reviews): create_pull_request_review without event leaves a pending review;
 * add_comment_to_pending_review adds line, range and file comments to it (a suggestion that would
 * not apply is refused before anything is posted); submit_pending_pull_request_review submits it
 * with a verdict, delete_pending_pull_request_review discards it; without a pending review both
 * say how to make one. --repos refuses before any request, --read-only leaves all three out.
 * Every GraphQL query the server sent validated against GitHub's schema in the fake.
 */
import { callChecked, structured } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gh: FakeGitHub;
let conn: Awaited<ReturnType<typeof startServer>>;
let pr = 0;
const base = { owner: 'acme', repo: 'demo' };
const WRITES = [
  'add_comment_to_pending_review',
  'submit_pending_pull_request_review',
  'delete_pending_pull_request_review',
] as const;

beforeAll(async () => {
  const started = await startScene();
  gh = started.gh;
  pr = gh.state.addPull(started.scene.demo, {
    title: 'Add multi',
    user: 'maintainer',
    head: 'multi',
    files: { 'src/multi.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' },
  }).number;
  // Build GitHub's GraphQL schema in the fake now (a second or more of CPU), not inside a test's time.
  gh.checkQuery('{ viewer { login } }');
  conn = await startServer(gh);
});
afterAll(async () => {
  await conn?.close();
  await gh?.close();
});

const pull = () => gh.state.repo('acme', 'demo')?.issues.find((i) => i.number === pr)?.pull;
const startPending = async () => {
  const r = await callChecked(conn, 'create_pull_request_review', { ...base, pull_number: pr });
  expect(r.isError).toBeFalsy();
  expect(structured<{ review: { state: string } }>(r).review.state).toBe('PENDING');
  expect(r.text).toContain('add_comment_to_pending_review');
};

describe('pending reviews', () => {
  it('create pending → add line, range, suggestion and file comments → submit with a verdict', async () => {
    await startPending();
    const line = await callChecked(conn, 'add_comment_to_pending_review', {
      ...base,
      pull_number: pr,
      path: 'src/multi.ts',
      line: 2,
      body: 'Why 2?',
    });
    expect(line.isError).toBeFalsy();
    const added = structured<{ threadId: string; commentId: number; reviewId: number }>(line);
    expect(added.threadId).toMatch(/.+/);
    const range = await callChecked(conn, 'add_comment_to_pending_review', {
      ...base,
      pull_number: pr,
      path: 'src/multi.ts',
      start_line: 1,
      line: 3,
      body: '```suggestion\nconst [a, b, c] = [1, 2, 3];\n```',
    });
    expect(range.isError).toBeFalsy();
    expect(range.text).toContain('src/multi.ts:1-3');
    const file = await callChecked(conn, 'add_comment_to_pending_review', {
      ...base,
      pull_number: pr,
      path: 'src/multi.ts',
      subject_type: 'file', // lowercase is taken too
      body: 'Whole file: fine.',
    });
    expect(file.isError).toBeFalsy();
    const comments = pull()?.reviewComments.filter((c) => c.reviewId === added.reviewId) ?? [];
    expect(comments.map((c) => [c.line, c.startLine, c.subjectType ?? 'LINE'])).toEqual([
      [2, undefined, 'LINE'],
      [3, 1, 'LINE'],
      [1, undefined, 'FILE'],
    ]);

    const submitted = await callChecked(conn, 'submit_pending_pull_request_review', {
      ...base,
      pull_number: pr,
      event: 'REQUEST_CHANGES',
      body: 'A few things.',
    });
    expect(submitted.isError).toBeFalsy();
    expect(structured<{ review: { id: number; state: string } }>(submitted).review).toMatchObject({
      id: added.reviewId,
      state: 'CHANGES_REQUESTED',
    });
    expect(submitted.text).toContain('with 3 comments');
    expect(pull()?.reviews.find((r) => r.id === added.reviewId)?.state).toBe('CHANGES_REQUESTED');
    const threads = structured<{ threads: { id: string }[] }>(
      await callChecked(conn, 'get_pull_request_review_threads', { ...base, pull_number: pr }),
    ).threads;
    expect(threads.map((t) => t.id)).toContain(added.threadId);
    expect(gh.graphqlRejected).toEqual([]);
  });

  it('a suggestion that would not apply is refused before the pending review is touched', async () => {
    await startPending();
    gh.api.clearRequests();
    const r = await callChecked(conn, 'add_comment_to_pending_review', {
      ...base,
      pull_number: pr,
      path: 'src/multi.ts',
      line: 9,
      body: '```suggestion\nx\n```',
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('The comment (src/multi.ts): its suggestion would not apply: line 9');
    expect(gh.api.requests.filter((q) => q.rawPath.endsWith('/graphql'))).toEqual([]);
  });

  it('one pending review per user; others see neither it nor its comments', async () => {
    const second = await callChecked(conn, 'create_pull_request_review', { ...base, pull_number: pr });
    expect(second.isError).toBe(true);
    expect(second.text).toContain('one pending review per pull request');
    expect(second.text).toContain(
      'submit it with submit_pending_pull_request_review or delete it with delete_pending_pull_request_review',
    );
    const own = await callChecked(conn, 'get_pull_request_reviews', { ...base, pull_number: pr });
    expect(own.text).toContain('pending (not submitted)');
    expect(own.text).not.toContain('at ?');
    const draft = await callChecked(conn, 'add_comment_to_pending_review', {
      ...base,
      pull_number: pr,
      path: 'src/multi.ts',
      line: 3,
      body: 'Draft remark',
    });
    expect(draft.isError).toBeFalsy();
    gh.state.tokens.set('MAINTAINER_TOKEN', 'maintainer');
    const other = await startServer(gh, [], { env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'MAINTAINER_TOKEN' } });
    try {
      const reviews = structured<{ reviews: { state: string }[] }>(
        await callChecked(other, 'get_pull_request_reviews', { ...base, pull_number: pr }),
      ).reviews;
      expect(reviews.map((r) => r.state)).not.toContain('PENDING');
      const threads = structured<{ threads: { comments: { body: string }[] }[] }>(
        await callChecked(other, 'get_pull_request_review_threads', { ...base, pull_number: pr }),
      ).threads;
      expect(threads.flatMap((t) => t.comments.map((c) => c.body))).not.toContain('Draft remark');
      const none = await callChecked(other, 'delete_pending_pull_request_review', {
        ...base,
        pull_number: pr,
      });
      expect(none.text).toContain('@maintainer has no pending review');
    } finally {
      await other.close();
    }
  });

  it('a path the pull request does not change, or a line outside its diff, is refused before GraphQL', async () => {
    gh.api.clearRequests();
    const path = await callChecked(conn, 'add_comment_to_pending_review', {
      ...base,
      pull_number: pr,
      path: 'README.md',
      line: 1,
      body: 'Here?',
    });
    expect(path.isError).toBe(true);
    expect(path.text).toContain(`README.md is not among the files acme/demo#${pr} changes`);
    expect(path.text).not.toContain('Path could not be resolved');
    const line = await callChecked(conn, 'add_comment_to_pending_review', {
      ...base,
      pull_number: pr,
      path: 'src/multi.ts',
      line: 9,
      body: 'Below the end',
    });
    expect(line.isError).toBe(true);
    expect(line.text).toContain('line 9 (RIGHT) of src/multi.ts is not in the diff');
    const left = await callChecked(conn, 'add_comment_to_pending_review', {
      ...base,
      pull_number: pr,
      path: 'src/multi.ts',
      line: 1,
      side: 'LEFT',
      body: 'Old side of a new file',
    });
    expect(left.isError).toBe(true);
    expect(left.text).toContain('line 1 (LEFT) of src/multi.ts is not in the diff');
    expect(gh.api.requests.filter((q) => q.rawPath.endsWith('/graphql'))).toEqual([]);
  });

  it('delete discards the pending review and its comments; then none is left to submit', async () => {
    // The pending review of the previous tests is still open (with "Draft remark").
    const add = await callChecked(conn, 'add_comment_to_pending_review', {
      ...base,
      pull_number: pr,
      path: 'src/multi.ts',
      line: 1,
      body: 'Draft',
    });
    expect(add.isError).toBeFalsy();
    const { reviewId } = structured<{ reviewId: number }>(add);
    const deleted = await callChecked(conn, 'delete_pending_pull_request_review', {
      ...base,
      pull_number: pr,
    });
    expect(deleted.isError).toBeFalsy();
    expect(structured<{ commentsDiscarded: number }>(deleted).commentsDiscarded).toBe(2);
    expect(pull()?.reviews.find((r) => r.id === reviewId)).toBeUndefined();
    expect(pull()?.reviewComments.filter((c) => c.reviewId === reviewId)).toEqual([]);
    const none = await callChecked(conn, 'submit_pending_pull_request_review', {
      ...base,
      pull_number: pr,
      event: 'COMMENT',
    });
    expect(none.isError).toBe(true);
    expect(none.text).toContain('has no pending review');
    expect(none.text).toContain('create_pull_request_review without event');
    expect(gh.graphqlRejected).toEqual([]);
  });

  it('--read-only leaves the writes out; --repos refuses another repository before any request', async () => {
    const ro = await startServer(gh, ['--read-only']);
    try {
      const names = (await ro.tools()).map((t) => t.name);
      for (const name of WRITES) expect(names).not.toContain(name);
    } finally {
      await ro.close();
    }
    const scoped = await startServer(gh, ['--repos', 'acme/other']);
    try {
      const args = {
        add_comment_to_pending_review: { path: 'src/multi.ts', line: 1, body: '```suggestion\nx\n```' },
        submit_pending_pull_request_review: { event: 'COMMENT' },
        delete_pending_pull_request_review: {},
      };
      for (const name of WRITES) {
        gh.api.clearRequests();
        const r = await callChecked(scoped, name, { ...base, pull_number: pr, ...args[name] });
        expect(r.isError, name).toBe(true);
        expect(r.text).toContain('--repos');
        expect(gh.api.requests, name).toEqual([]);
      }
    } finally {
      await scoped.close();
    }
  });
});

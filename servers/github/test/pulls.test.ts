/**
 * The pull request and repository tools end to end against the fake: compact output (the fields
 * a model needs, not GitHub's JSON), the diff, status, reviews, merge and branch update, commits
 * with their diff, branches, tags, releases, search and get_me.
 */

import { callChecked, structured } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gh: FakeGitHub;
let conn: Awaited<ReturnType<typeof startServer>>;
let pr = 0;
beforeAll(async () => {
  const started = await startScene();
  gh = started.gh;
  pr = started.scene.pr.number;
  conn = await startServer(gh);
});
afterAll(async () => {
  await conn.close();
  await gh.close();
});
const base = { owner: 'acme', repo: 'demo' };

describe('pull requests', () => {
  it('get_pull_request is compact: head/base refs and shas, counts, body — no URL soup', async () => {
    const r = await callChecked(conn, 'get_pull_request', { ...base, pull_number: pr });
    const p = structured<{ pullRequest: Record<string, unknown> }>(r).pullRequest;
    expect(p).toMatchObject({
      number: pr,
      title: 'Improve app',
      state: 'open',
      author: 'octo',
      head: { ref: 'feature' },
      base: { ref: 'main' },
      changedFiles: 2,
      additions: 2,
      deletions: 1,
      mergeable: true,
      body: 'Makes the answer configurable.',
    });
    expect(JSON.stringify(r.structuredContent)).not.toMatch(/_url|node_id|avatar/);
    expect(r.text).toMatch(/^PR #4 \[open\] Improve app · @octo · acme:feature → main · 2 files \+2\/-1/m);
  });

  it('files, diff, status, review comments and reviews', async () => {
    const files = structured<{ files: { filename: string; status: string; patch: string }[] }>(
      await callChecked(conn, 'get_pull_request_files', { ...base, pull_number: pr }),
    ).files;
    expect(files.map((f) => [f.filename, f.status])).toEqual([
      ['src/app.ts', 'modified'],
      ['src/new.ts', 'added'],
    ]);
    expect(files[0]?.patch).toContain('+export const answer = Number(process.env.ANSWER ?? 42);');
    const diff = await callChecked(conn, 'get_pull_request_diff', { ...base, pull_number: pr });
    expect(structured(diff)).toMatchObject({ truncated: false });
    expect(structured<{ diff: string }>(diff).diff).toMatch(/^diff --git a\/src\/app\.ts b\/src\/app\.ts/);
    const status = await callChecked(conn, 'get_pull_request_status', { ...base, pull_number: pr });
    expect(structured(status)).toMatchObject({
      status: {
        state: 'success',
        totalCount: 1,
        statuses: [{ context: 'ci/test', state: 'success', description: 'Tests passed' }],
      },
    });
    const comments = await callChecked(conn, 'get_pull_request_comments', { ...base, pull_number: pr });
    expect(structured(comments)).toMatchObject({
      comments: [{ author: 'maintainer', path: 'src/app.ts', line: 1, body: 'Nit: name' }],
      hasMore: false,
    });
    const reviews = await callChecked(conn, 'get_pull_request_reviews', { ...base, pull_number: pr });
    expect(structured(reviews)).toMatchObject({
      reviews: [{ author: 'maintainer', state: 'APPROVED', body: 'Looks good' }],
    });
  });

  it('create, review, update branch, update and merge', async () => {
    await callChecked(conn, 'create_branch', { ...base, branch: 'topic' });
    await callChecked(conn, 'create_or_update_file', {
      ...base,
      path: 'topic.md',
      content: 't\n',
      message: 'topic',
      branch: 'topic',
    });
    const created = await callChecked(conn, 'create_pull_request', {
      ...base,
      title: 'Topic',
      head: 'topic',
      base: 'main',
      body: 'Adds topic.md',
      draft: true,
    });
    const number = structured<{ pullRequest: { number: number; draft: boolean } }>(created).pullRequest
      .number;
    expect(structured(created)).toMatchObject({ pullRequest: { draft: true, head: { ref: 'topic' } } });
    const own = await callChecked(conn, 'create_pull_request_review', {
      ...base,
      pull_number: number,
      body: 'ok',
      event: 'APPROVE',
    });
    expect(own.isError).toBe(true);
    expect(own.text).toMatch(/422.*Can not approve your own pull request/);
    const review = await callChecked(conn, 'create_pull_request_review', {
      ...base,
      pull_number: number,
      body: 'see line',
      event: 'COMMENT',
      comments: [{ path: 'topic.md', line: 1, body: 'why?' }],
    });
    expect(structured(review)).toMatchObject({ review: { state: 'COMMENTED', author: 'octo' } });
    await callChecked(conn, 'create_or_update_file', {
      ...base,
      path: 'main-only.md',
      content: 'm\n',
      message: 'main moves',
      branch: 'main',
    });
    const updated = await callChecked(conn, 'update_pull_request_branch', { ...base, pull_number: number });
    expect(structured(updated)).toMatchObject({ message: 'Updating pull request branch.' });
    const edit = await callChecked(conn, 'update_pull_request', {
      ...base,
      pull_number: number,
      title: 'Topic (ready)',
    });
    expect(structured(edit)).toMatchObject({ pullRequest: { title: 'Topic (ready)' } });
    const merged = await callChecked(conn, 'merge_pull_request', {
      ...base,
      pull_number: number,
      merge_method: 'squash',
    });
    expect(structured(merged)).toMatchObject({ merged: true, message: 'Pull Request successfully merged' });
    const again = await callChecked(conn, 'merge_pull_request', { ...base, pull_number: number });
    expect(again.text).toMatch(
      /GitHub API 405 on PUT \/repos\/acme\/demo\/pulls\/\d+\/merge: method not allowed.*Pull Request is not mergeable/,
    );
    const list = await callChecked(conn, 'list_pull_requests', { ...base, state: 'closed' });
    expect(
      structured<{ pullRequests: { number: number }[] }>(list).pullRequests.map((p) => p.number),
    ).toContain(number);
  });
});

describe('repository reads', () => {
  it('get_commit returns the message, stats and per-file patches', async () => {
    const head = gh.state.repo('acme', 'demo')?.branches.get('feature') ?? '';
    const r = await callChecked(conn, 'get_commit', { ...base, sha: 'feature' });
    expect(structured(r)).toMatchObject({
      commit: {
        sha: head,
        author: 'octo',
        message: 'Changes for Improve app',
        stats: { additions: 2, deletions: 1 },
      },
    });
    expect(
      structured<{ commit: { files: { filename: string; patch: string }[] } }>(r).commit.files.map(
        (f) => f.filename,
      ),
    ).toEqual(['src/app.ts', 'src/new.ts']);
  });

  it('branches, tags, releases, latest release, tree and search', async () => {
    expect(
      structured<{ branches: { name: string }[] }>(
        await callChecked(conn, 'list_branches', base),
      ).branches.map((b) => b.name),
    ).toContain('feature');
    expect(structured(await callChecked(conn, 'list_tags', base))).toMatchObject({
      tags: [{ name: 'v1.0.0' }],
    });
    expect(structured(await callChecked(conn, 'list_releases', base))).toMatchObject({
      releases: [{ tag: 'v1.0.0', name: 'First', body: 'Initial release', author: 'maintainer' }],
    });
    expect(structured(await callChecked(conn, 'get_latest_release', base))).toMatchObject({
      release: { tag: 'v1.0.0' },
    });
    const tree = await callChecked(conn, 'get_repository_tree', { ...base, path_filter: 'src' });
    expect(structured<{ entries: { path: string }[] }>(tree).entries.map((e) => e.path)).toEqual([
      'src/app.ts',
    ]);
    const code = await callChecked(conn, 'search_code', { q: 'answer repo:acme/demo' });
    expect(
      structured<{ items: { path: string }[] }>(code)
        .items.map((i) => i.path)
        .sort(),
    ).toEqual(['docs/guide.md', 'src/app.ts']);
    const users = await callChecked(conn, 'search_users', { q: 'octo' });
    expect(structured(users)).toMatchObject({ users: [{ login: 'octo', type: 'User' }] });
  });

  it('get_me reports the login and the token scopes', async () => {
    const r = await callChecked(conn, 'get_me', {});
    expect(structured(r)).toMatchObject({
      login: 'octo',
      name: 'Octo Cat',
      scopes: ['repo', 'read:org'],
      readOnly: false,
      repositoryScope: null,
    });
  });
});

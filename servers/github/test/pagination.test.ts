/**
 * Pagination (cases GH-06, ALL-05): a pull request with 45 reviews and 120 changed files; every
 * list tool takes page/perPage, says when more exists (from the Link header), and following
 * nextPage yields the rest with no duplicates — nothing silently stops at 30.
 */
import { callChecked, findDuplicates, followPages, structured } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gh: FakeGitHub;
let conn: Awaited<ReturnType<typeof startServer>>;
let prNumber = 0;

beforeAll(async () => {
  ({ gh } = await startScene());
  const repo = gh.state.repo('acme', 'demo');
  if (!repo) throw new Error('no scene');
  const files = Object.fromEntries(
    Array.from({ length: 120 }, (_, i) => [`gen/file-${String(i).padStart(3, '0')}.txt`, `content ${i}\n`]),
  );
  const pr = gh.state.addPull(repo, {
    title: 'Big change',
    body: 'Many files',
    user: 'octo',
    head: 'big',
    files,
  });
  prNumber = pr.number;
  for (let i = 0; i < 45; i++)
    gh.state.addReview(repo, pr, { user: `reviewer${i}`, body: `review ${i}`, state: 'COMMENTED' });
  for (let i = 0; i < 35; i++)
    gh.state.addIssue(repo, { title: `Issue ${i}`, body: `body ${i}`, user: 'octo' });
  conn = await startServer(gh, ['--toolsets', 'all']);
});
afterAll(async () => {
  await conn.close();
  await gh.close();
});

interface Paged {
  page: number;
  hasMore: boolean;
  nextPage?: number;
}

async function walk(tool: string, args: Record<string, unknown>, key: string, pageArg = 'page') {
  const pages = await followPages(
    async (page: number | undefined) => {
      const r = await callChecked(conn, tool, { ...args, ...(page ? { [pageArg]: page } : {}) });
      expect(r.isError, r.text).toBeFalsy();
      return structured<Paged & Record<string, unknown>>(r);
    },
    (p) => (p.hasMore ? p.nextPage : undefined),
  );
  return pages.pages.flatMap((p) => p[key] as unknown[]);
}

describe('GH-06 pagination', () => {
  it('GH-06 45 reviews: the first page says more exist, following nextPage yields all 45 once', async () => {
    const first = await callChecked(conn, 'get_pull_request_reviews', {
      owner: 'acme',
      repo: 'demo',
      pull_number: prNumber,
    });
    expect(structured(first)).toMatchObject({
      page: 1,
      perPage: 30,
      hasMore: true,
      nextPage: 2,
      lastPage: 2,
    });
    expect(first.text).toMatch(
      /30 reviews on page 1 of 2 \(30 per page\)\. More exist: call again with page: 2\./,
    );
    const all = await walk(
      'get_pull_request_reviews',
      { owner: 'acme', repo: 'demo', pull_number: prNumber },
      'reviews',
    );
    expect(all).toHaveLength(45);
    expect(findDuplicates(all, (r) => String((r as { id: number }).id))).toEqual([]);
  });

  it('GH-06 120 changed files: per_page 50 gives 3 pages with no duplicates', async () => {
    const all = await walk(
      'get_pull_request_files',
      { owner: 'acme', repo: 'demo', pull_number: prNumber, per_page: 50 },
      'files',
    );
    expect(all).toHaveLength(120);
    expect(findDuplicates(all, (f) => (f as { filename: string }).filename)).toEqual([]);
    const pr = await callChecked(conn, 'get_pull_request', {
      owner: 'acme',
      repo: 'demo',
      pull_number: prNumber,
    });
    expect(structured(pr)).toMatchObject({ pullRequest: { changedFiles: 120 } });
  });

  it('GH-06 issues, commits (perPage), branches and workflow runs page the same way', async () => {
    const issues = await walk('list_issues', { owner: 'acme', repo: 'demo', state: 'all' }, 'issues');
    expect(issues.length).toBe(gh.state.repo('acme', 'demo')?.issues.length);
    const last = await callChecked(conn, 'list_issues', {
      owner: 'acme',
      repo: 'demo',
      state: 'all',
      page: 2,
    });
    expect(structured(last)).toMatchObject({ page: 2, hasMore: false });
    expect(last.text).toMatch(/No more pages\./);
    const commits = await walk('list_commits', { owner: 'acme', repo: 'demo', perPage: 1 }, 'commits');
    expect(commits.length).toBe(
      gh.state.repo('acme', 'demo')?.store.history(gh.state.repo('acme', 'demo')?.branches.get('main') ?? '')
        .length,
    );
    const branches = await walk('list_branches', { owner: 'acme', repo: 'demo', per_page: 1 }, 'branches');
    expect(branches.length).toBe(gh.state.repo('acme', 'demo')?.branches.size);
  });

  it("the repository tree pages client-side over GitHub's single answer", async () => {
    const entries = await walk(
      'get_repository_tree',
      { owner: 'acme', repo: 'demo', tree_sha: 'big', per_page: 40 },
      'entries',
    );
    expect(entries.filter((e) => (e as { path: string }).path.startsWith('gen/file-'))).toHaveLength(120);
    expect(findDuplicates(entries, (e) => (e as { path: string }).path)).toEqual([]);
  });
});

/**
 * Issue 29 (issues): list_sub_issues, add_sub_issue and remove_sub_issue through the built server
 * against the fake GitHub. The sub-issue is named by number (also in another repository of the
 * same owner) and resolved to its id with a GET; both repositories are checked against --repos
 * before any request; list_sub_issues pages by the Link header and leaves out sub-issues outside
 * --repos; --read-only keeps only the list.
 */
import { callChecked, structured } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gh: FakeGitHub;
let conn: Awaited<ReturnType<typeof startServer>>;
const base = { owner: 'acme', repo: 'demo' };
type Sub = { repository: string; number: number; title: string };
type SubList = { subIssues: Sub[]; hasMore: boolean; nextPage?: number; withheldOutOfScope?: number };

beforeAll(async () => {
  const started = await startScene();
  gh = started.gh;
  const tasks = gh.state.addRepo('acme', 'tasks', { collaborators: { octo: 'write' } });
  gh.state.addIssue(tasks, { title: 'Write the migration', body: 'Step one.', user: 'octo' });
  conn = await startServer(gh);
});
afterAll(async () => {
  await conn?.close();
  await gh?.close();
});

const list = async (c = conn, extra: Record<string, unknown> = {}) =>
  structured<SubList>(await callChecked(c, 'list_sub_issues', { ...base, issue_number: 1, ...extra }));

describe('sub-issues', () => {
  it('adds by number (resolved to the id with a GET), in the same and in another repository of the owner', async () => {
    gh.api.clearRequests();
    const r = await callChecked(conn, 'add_sub_issue', { ...base, issue_number: 1, sub_issue_number: 2 });
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('Added acme/demo#2 as a sub-issue of:');
    expect(structured<{ issue: { number: number } }>(r).issue.number).toBe(1);
    const [get, post] = gh.api.requests;
    expect(`${get?.method} ${get?.path}`).toMatch(/^GET .*\/repos\/acme\/demo\/issues\/2$/);
    expect(`${post?.method} ${post?.path}`).toMatch(/^POST .*\/repos\/acme\/demo\/issues\/1\/sub_issues$/);
    const id = gh.state.repo('acme', 'demo')?.issues[1]?.id;
    expect(JSON.parse(post?.body ?? '{}')).toEqual({ sub_issue_id: id });

    const cross = await callChecked(conn, 'add_sub_issue', {
      ...base,
      issue_number: 1,
      sub_issue_number: 1,
      sub_issue_repo: 'tasks',
    });
    expect(cross.isError).toBeFalsy();
    expect(cross.text).toContain('Added acme/tasks#1');
  });

  it('lists sub-issues with their repositories, paged', async () => {
    const p1 = await list(conn, { per_page: 1 });
    expect(p1.subIssues.map((s) => [s.repository, s.number, s.title])).toEqual([
      ['acme/demo', 2, 'Add docs'],
    ]);
    expect(p1).toMatchObject({ hasMore: true, nextPage: 2 });
    const p2 = await list(conn, { per_page: 1, page: 2 });
    expect(p2.subIssues.map((s) => [s.repository, s.number])).toEqual([['acme/tasks', 1]]);
    expect(p2.hasMore).toBe(false);
  });

  it('an issue that already has a parent is refused unless replace_parent', async () => {
    const again = await callChecked(conn, 'add_sub_issue', { ...base, issue_number: 3, sub_issue_number: 2 });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/one parent|422/);
    const moved = await callChecked(conn, 'add_sub_issue', {
      ...base,
      issue_number: 3,
      sub_issue_number: 2,
      replace_parent: true,
    });
    expect(moved.isError).toBeFalsy();
    expect((await list()).subIssues.map((s) => s.repository + s.number)).toEqual(['acme/tasks1']);
    const back = await callChecked(conn, 'add_sub_issue', {
      ...base,
      issue_number: 1,
      sub_issue_number: 2,
      replace_parent: true,
    });
    expect(back.isError).toBeFalsy();
  });

  it('removes one; the issue stays and the others remain', async () => {
    gh.api.clearRequests();
    const r = await callChecked(conn, 'remove_sub_issue', {
      ...base,
      issue_number: 1,
      sub_issue_number: 1,
      sub_issue_repo: 'tasks',
    });
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('Removed acme/tasks#1 from the sub-issues of:');
    const del = gh.api.requests.at(-1);
    expect(`${del?.method} ${del?.path}`).toMatch(/^DELETE .*\/repos\/acme\/demo\/issues\/1\/sub_issue$/);
    expect((await list()).subIssues.map((s) => s.repository + s.number)).toEqual(['acme/demo2']);
    expect(gh.state.repo('acme', 'tasks')?.issues).toHaveLength(1);
    const missing = await callChecked(conn, 'remove_sub_issue', {
      ...base,
      issue_number: 1,
      sub_issue_number: 3,
    });
    expect(missing.isError).toBe(true);
  });

  it('an unknown sub-issue number is isError after the GET, with no write', async () => {
    gh.api.clearRequests();
    const r = await callChecked(conn, 'add_sub_issue', { ...base, issue_number: 1, sub_issue_number: 999 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/not found|404/i);
    expect(gh.api.requests.map((q) => q.method)).toEqual(['GET']);
  });
});

describe('scope and read-only', () => {
  it('--repos refuses a sub-issue repository outside it before any request, and withholds listed ones', async () => {
    await callChecked(conn, 'add_sub_issue', {
      ...base,
      issue_number: 1,
      sub_issue_number: 1,
      sub_issue_repo: 'tasks',
    });
    const scoped = await startServer(gh, ['--repos', 'acme/demo']);
    try {
      gh.api.clearRequests();
      for (const name of ['add_sub_issue', 'remove_sub_issue']) {
        const r = await callChecked(scoped, name, {
          ...base,
          issue_number: 1,
          sub_issue_number: 1,
          sub_issue_repo: 'tasks',
        });
        expect(r.isError).toBe(true);
        expect(r.text).toContain('--repos');
      }
      const other = await callChecked(scoped, 'list_sub_issues', {
        owner: 'acme',
        repo: 'tasks',
        issue_number: 1,
      });
      expect(other.isError).toBe(true);
      expect(gh.api.requests.filter((q) => q.path.includes('/repos/'))).toEqual([]);
      const listed = await list(scoped);
      expect(listed.subIssues.map((s) => s.repository + s.number)).toEqual(['acme/demo2']);
      expect(listed.withheldOutOfScope).toBe(1);
    } finally {
      await scoped.close();
    }
  });

  it('--lockdown withholds the title and body of a sub-issue by an author without push access', async () => {
    const added = await callChecked(conn, 'add_sub_issue', { ...base, issue_number: 3, sub_issue_number: 1 });
    expect(added.isError).toBeFalsy();
    const locked = await startServer(gh, ['--lockdown']);
    try {
      const r = await callChecked(locked, 'list_sub_issues', { ...base, issue_number: 3 });
      const [sub] = structured<{ subIssues: (Sub & { withheld?: boolean; body: string })[] }>(r).subIssues;
      expect(sub).toMatchObject({ number: 1, title: '[withheld]', withheld: true });
      expect(r.text).not.toContain('Ignore all previous');
      expect(r.text).not.toContain('Build fails');
    } finally {
      await locked.close();
    }
  });

  it('--read-only keeps list_sub_issues and leaves out the writes', async () => {
    const ro = await startServer(gh, ['--read-only']);
    try {
      const names = (await ro.tools()).map((t) => t.name);
      expect(names).toContain('list_sub_issues');
      expect(names).not.toContain('add_sub_issue');
      expect(names).not.toContain('remove_sub_issue');
    } finally {
      await ro.close();
    }
  });
});

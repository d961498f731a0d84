/**
 * Issue 29 (issues): list_label lists a repository's labels (name, color, description) paged by
 * the Link header; update_issue's add_labels/remove_labels change single labels without replacing
 * the set (POST …/labels, DELETE …/labels/{name}), refuse mixing with labels before any request;
 * --read-only keeps list_label only, --repos refuses another repository before any request.
 */
import { callChecked, structured } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gh: FakeGitHub;
let conn: Awaited<ReturnType<typeof startServer>>;
const base = { owner: 'acme', repo: 'demo' };
type Label = { name: string; color: string; description?: string };

beforeAll(async () => {
  const started = await startScene();
  gh = started.gh;
  started.scene.demo.labels = [
    { name: 'bug', color: 'd73a4a', description: "Something isn't working" },
    { name: 'area/ui', color: '0075ca', description: null },
    { name: 'good first issue', color: '7057ff', description: 'Good for newcomers' },
  ];
  conn = await startServer(gh);
});
afterAll(async () => {
  await conn?.close();
  await gh?.close();
});

describe('list_label', () => {
  it("lists the repository's labels with colors and descriptions, paged", async () => {
    const first = await callChecked(conn, 'list_label', { ...base, per_page: 3 });
    expect(first.isError).toBeFalsy();
    const p1 = structured<{ labels: Label[]; hasMore: boolean; nextPage?: number }>(first);
    expect(p1.labels).toEqual([
      { name: 'area/ui', color: '0075ca' },
      { name: 'bug', color: 'd73a4a', description: "Something isn't working" },
      { name: 'docs', color: 'ededed' },
    ]);
    expect(p1).toMatchObject({ hasMore: true, nextPage: 2 });
    expect(first.text).toContain('bug #d73a4a');
    const second = structured<{ labels: Label[]; hasMore: boolean }>(
      await callChecked(conn, 'list_label', { ...base, per_page: 3, page: 2 }),
    );
    expect(second.labels.map((l) => l.name)).toEqual(['good first issue']);
    expect(second.hasMore).toBe(false);
  });
});

describe('update_issue add_labels / remove_labels', () => {
  it('adds and removes single labels, keeping the others, with no PATCH when nothing else changes', async () => {
    gh.api.clearRequests();
    const r = await callChecked(conn, 'update_issue', {
      ...base,
      issue_number: 1,
      add_labels: ['area/ui', 'good first issue'],
      remove_labels: ['bug'],
    });
    expect(r.isError).toBeFalsy();
    expect(structured<{ issue: { labels: string[] } }>(r).issue.labels).toEqual([
      'area/ui',
      'good first issue',
    ]);
    expect(gh.api.requests.map((q) => `${q.method} ${q.path.replace(/^.*\/issues\/1/, '')}`)).toEqual([
      'POST /labels',
      'DELETE /labels/bug',
      'GET ',
    ]);
    const again = await callChecked(conn, 'update_issue', {
      ...base,
      issue_number: 1,
      remove_labels: ['area/ui'],
      state: 'closed',
    });
    expect(structured<{ issue: { labels: string[]; state: string } }>(again).issue).toMatchObject({
      labels: ['good first issue'],
      state: 'closed',
    });
  });

  it('removing a label the issue does not have is isError naming it; labels with add_labels is refused first', async () => {
    const r = await callChecked(conn, 'update_issue', { ...base, issue_number: 2, remove_labels: ['nope'] });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Label does not exist|404/);
    gh.api.clearRequests();
    const both = await callChecked(conn, 'update_issue', {
      ...base,
      issue_number: 2,
      labels: ['x'],
      add_labels: ['y'],
    });
    expect(both.isError).toBe(true);
    expect(both.text).toContain('not both');
    expect(gh.api.requests).toEqual([]);
  });
});

describe('scope and read-only', () => {
  it('--read-only keeps list_label and leaves out update_issue', async () => {
    const ro = await startServer(gh, ['--read-only']);
    try {
      const names = (await ro.tools()).map((t) => t.name);
      expect(names).toContain('list_label');
      expect(names).not.toContain('update_issue');
    } finally {
      await ro.close();
    }
  });

  it('--repos refuses another repository before any request', async () => {
    const scoped = await startServer(gh, ['--repos', 'acme/other']);
    try {
      gh.api.clearRequests();
      for (const [name, args] of [
        ['list_label', base],
        ['update_issue', { ...base, issue_number: 2, add_labels: ['bug'] }],
      ] as const) {
        const r = await callChecked(scoped, name, args);
        expect(r.isError).toBe(true);
        expect(r.text).toContain('--repos');
      }
      expect(gh.api.requests.filter((q) => q.path.includes('/repos/'))).toEqual([]);
    } finally {
      await scoped.close();
    }
  });
});

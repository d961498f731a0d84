/**
 * Issue 29, labels on GitLab: update_issue and update_merge_request add and remove labels without
 * replacing the others (GitLab's add_labels / remove_labels, comma-joined in one PUT); list_labels
 * with counts, search and pages.
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

const labelsOf = (r: { structuredContent?: unknown }, key: 'issue' | 'merge_request') =>
  (r.structuredContent as Record<string, { labels?: string[] }>)[key]?.labels ?? [];

describe('add and remove labels', () => {
  it('update_issue adds and removes labels, keeping the rest, in one PUT', async () => {
    gl.api.clearRequests();
    const r = await callChecked(conn, 'update_issue', {
      project_id: 'grp/proj',
      issue_iid: 2,
      add_labels: ['triaged', 'help wanted'],
      remove_labels: ['docs'],
    });
    expect(r.isError, r.text).toBeFalsy();
    expect(labelsOf(r, 'issue').sort()).toEqual(['help wanted', 'triaged']);
    const puts = gl.api.requests.filter((x) => x.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(JSON.parse(puts[0]?.body ?? '{}')).toEqual({
      add_labels: 'triaged,help wanted',
      remove_labels: 'docs',
    });
    const again = await callChecked(conn, 'update_issue', {
      project_id: 'grp/proj',
      issue_iid: 2,
      add_labels: ['bug'],
    });
    expect(labelsOf(again, 'issue').sort()).toEqual(['bug', 'help wanted', 'triaged']);
  });

  it('update_merge_request adds and removes labels', async () => {
    const added = await callChecked(conn, 'update_merge_request', {
      project_id: 'grp/proj',
      merge_request_iid: 1,
      add_labels: ['needs review', 'backend'],
    });
    expect(labelsOf(added, 'merge_request').sort()).toEqual(['backend', 'needs review']);
    const removed = await callChecked(conn, 'update_merge_request', {
      project_id: 'grp/proj',
      merge_request_iid: 1,
      remove_labels: ['needs review'],
    });
    expect(labelsOf(removed, 'merge_request')).toEqual(['backend']);
  });

  it('--projects refuses another project before any request', async () => {
    const scoped = await startServer(gl, ['--projects', 'grp/sub/*']);
    gl.api.clearRequests();
    try {
      const r = await callChecked(scoped, 'update_issue', {
        project_id: 'grp/proj',
        issue_iid: 2,
        add_labels: ['x'],
      });
      expect(r.text).toContain('grp/proj is outside the projects this server may access');
      expect(gl.api.requests).toEqual([]);
    } finally {
      await scoped.close();
    }
  });
});

describe('list_labels', () => {
  it('lists labels by name with open issue and MR counts (GitLab asked with_counts=true)', async () => {
    gl.state.addLabel(gl.state.project('grp/proj') ?? fail(), 'priority::high', {
      color: '#dc143c',
      description: 'Do <b>first</b>',
    });
    gl.api.clearRequests();
    const r = await callChecked(conn, 'list_labels', { project_id: 'grp/proj' });
    expect(r.isError, r.text).toBeFalsy();
    const labels = (r.structuredContent as { labels: Array<Record<string, unknown>> }).labels;
    const names = labels.map((l) => l.name);
    expect(names).toEqual([...names].sort());
    expect(labels.find((l) => l.name === 'priority::high')).toMatchObject({
      color: '#dc143c',
      openIssues: 0,
      openMergeRequests: 0,
    });
    expect(labels.find((l) => l.name === 'help wanted')).toMatchObject({ openIssues: 1 });
    expect(gl.api.requests.at(-1)?.query.get('with_counts')).toBe('true');
    expect(r.text).toContain('priority::high #dc143c (0 open issues, 0 open MRs)');
  });

  it('passes search and pages with page/per_page', async () => {
    const first = await callChecked(conn, 'list_labels', { project_id: 'grp/proj', per_page: 1 });
    const p1 = first.structuredContent as {
      labels: Array<{ name: string }>;
      hasMore?: boolean;
      nextPage?: number;
    };
    expect(p1.labels).toHaveLength(1);
    expect(p1.hasMore).toBe(true);
    const second = await callChecked(conn, 'list_labels', {
      project_id: 'grp/proj',
      per_page: 1,
      page: p1.nextPage ?? 0,
    });
    const p2 = second.structuredContent as { labels: Array<{ name: string }> };
    expect(p2.labels[0]?.name).not.toBe(p1.labels[0]?.name);
    const found = await callChecked(conn, 'list_labels', { project_id: 'grp/proj', search: 'PRIORITY' });
    expect(
      (found.structuredContent as { labels: Array<{ name: string }> }).labels.map((l) => l.name),
    ).toEqual(['priority::high']);
  });

  it('--projects refuses another project before any request', async () => {
    const scoped = await startServer(gl, ['--projects', 'grp/sub/*']);
    gl.api.clearRequests();
    try {
      const r = await callChecked(scoped, 'list_labels', { project_id: 'grp/proj' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('grp/proj is outside the projects this server may access');
      expect(gl.api.requests).toEqual([]);
    } finally {
      await scoped.close();
    }
  });
});

function fail(): never {
  throw new Error('no project grp/proj in the scene');
}

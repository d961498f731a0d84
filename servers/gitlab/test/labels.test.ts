/**
 * Issue 29, labels on GitLab: update_issue and update_merge_request add and remove labels without
 * replacing the others (GitLab's add_labels / remove_labels, comma-joined in one PUT).
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

/**
 * Issue 29, pending review on GitLab: draft notes collect (general, on a diff line, a reply that
 * resolves its thread), list, delete one, and publish at once with a reviewer state; a draft's
 * suggestion is checked like a thread's; --projects refuses before any request; --read-only
 * leaves only list_draft_notes.
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

const P = { project_id: 'grp/proj', merge_request_iid: 1 };
type Draft = { id: number; body: string; position?: string; discussion?: string; resolvesThread?: boolean };
type Note = { discussion?: string; resolved?: boolean; body: string; position?: string };
const drafts = async () =>
  ((await callChecked(conn, 'list_draft_notes', P)).structuredContent as { drafts: Draft[] }).drafts;
const notes = async () =>
  ((await callChecked(conn, 'list_merge_request_discussions', P)).structuredContent as { notes: Note[] })
    .notes;

describe('a pending review', () => {
  it('collects drafts, deletes one, publishes the rest once with a reviewer state', async () => {
    const thread = (await notes()).find((n) => n.position)?.discussion ?? '';
    expect(thread).toMatch(/^[0-9a-f]{40}$/);
    const general = await callChecked(conn, 'create_draft_note', { ...P, body: 'Draft: overall OK.' });
    expect(general.isError, general.text).toBeFalsy();
    const onLine = await callChecked(conn, 'create_draft_note', {
      ...P,
      body: '```suggestion\nexport const answer = 42;\n```',
      path: 'src/app.ts',
      new_line: 1,
    });
    expect(onLine.isError, onLine.text).toBeFalsy();
    expect(onLine.text).toContain('on src/app.ts:1');
    const reply = await callChecked(conn, 'create_draft_note', {
      ...P,
      body: 'Fixed, resolving.',
      in_reply_to_discussion_id: thread,
      resolve_discussion: true,
    });
    expect(reply.text).toContain(`replying in thread ${thread} (resolves it)`);

    const listed = await drafts();
    expect(listed.map((d) => d.body)).toEqual([
      'Draft: overall OK.',
      '```suggestion\nexport const answer = 42;\n```',
      'Fixed, resolving.',
    ]);
    // Nothing is visible on the MR before publishing.
    expect((await notes()).some((n) => n.body.includes('Fixed, resolving.'))).toBe(false);

    const del = await callChecked(conn, 'delete_draft_note', { ...P, draft_note_id: listed[0]?.id ?? 0 });
    expect(del.isError, del.text).toBeFalsy();
    expect(await drafts()).toHaveLength(2);

    gl.api.clearRequests();
    const published = await callChecked(conn, 'bulk_publish_draft_notes', {
      ...P,
      note: 'Two comments.',
      reviewer_state: 'requested_changes',
    });
    expect(published.text).toContain('Published your drafts on !1 (requested_changes).');
    const [post] = gl.api.requests.filter((r) => r.method === 'POST');
    expect(JSON.parse(post?.body ?? '{}')).toEqual({
      note: 'Two comments.',
      reviewer_state: 'requested_changes',
    });
    expect(await drafts()).toEqual([]);
    const after = await notes();
    expect(after.find((n) => n.body === 'Fixed, resolving.')?.discussion).toBe(thread);
    expect(after.filter((n) => n.discussion === thread).every((n) => n.resolved)).toBe(true);
    expect(after.some((n) => n.body.startsWith('```suggestion') && n.position === 'src/app.ts:1')).toBe(true);
    expect(after.some((n) => n.body === 'Draft: overall OK.')).toBe(false);
    expect(after.some((n) => n.body === 'Two comments.')).toBe(true);

    // Nothing left: says so and posts nothing.
    gl.api.clearRequests();
    const again = await callChecked(conn, 'bulk_publish_draft_notes', P);
    expect(again.isError).toBeFalsy();
    expect(again.text).toContain('No draft notes to publish on !1: nothing was posted.');
    expect(again.structuredContent).toEqual({ published: false });
    expect(gl.api.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('a draft suggestion that would not apply is refused before anything is saved', async () => {
    gl.api.clearRequests();
    const stale = await callChecked(conn, 'create_draft_note', {
      ...P,
      body: '```suggestion:-1+0\nx\n```',
      path: 'src/app.ts',
      new_line: 1,
    });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(
      /the suggestion would not apply: suggestion:-1\+0 on line 1 starts before line 1/,
    );
    const loose = await callChecked(conn, 'create_draft_note', { ...P, body: '```suggestion\nx\n```' });
    expect(loose.text).toMatch(/A suggestion goes on a diff line/);
    expect(gl.api.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

describe('scope and read-only', () => {
  const CALLS: Array<[string, Record<string, unknown>]> = [
    ['list_draft_notes', {}],
    ['create_draft_note', { body: 'x' }],
    ['delete_draft_note', { draft_note_id: 1 }],
    ['bulk_publish_draft_notes', {}],
  ];

  it('--projects refuses another project before any request', async () => {
    const scoped = await startServer(gl, ['--projects', 'grp/sub/*']);
    gl.api.clearRequests();
    try {
      for (const [name, args] of CALLS) {
        const r = await callChecked(scoped, name, { ...P, ...args });
        expect(r.isError, name).toBe(true);
        expect(r.text, name).toContain('grp/proj is outside the projects this server may access');
      }
      expect(gl.api.requests).toEqual([]);
    } finally {
      await scoped.close();
    }
  });

  it('--read-only serves list_draft_notes and none of the draft writes', async () => {
    const ro = await startServer(gl, ['--read-only']);
    try {
      const names = (await ro.tools()).map((t) => t.name);
      expect(names).toContain('list_draft_notes');
      for (const [name] of CALLS.slice(1)) expect(names).not.toContain(name);
    } finally {
      await ro.close();
    }
  });
});

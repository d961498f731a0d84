/**
 * Issue 29, review loop on GitLab: thread ids round-trip from list_merge_request_discussions to
 * create_merge_request_discussion_note and resolve_merge_request_thread; create_merge_request_thread
 * builds a diff position from path and line (both numbers for an unchanged line); suggestions are
 * checked against the head before anything is posted; --lockdown withholds outsiders' suggestions;
 * --projects refuses before any request; --read-only leaves none of the writes.
 */
import { createHash } from 'node:crypto';
import { callChecked } from '@refmcp/test-harness';
import type { FakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gl: FakeGitLab;
let scene: Awaited<ReturnType<typeof startScene>>['scene'];
let conn: Awaited<ReturnType<typeof startServer>>;
/** !2: a ten-line file whose lines 4–5 the MR replaces (old 4 → new 4 and 5). */
let wide: number;
beforeAll(async () => {
  ({ gl, scene } = await startScene());
  const s = gl.state;
  const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
  const dev = s.userId('dev');
  s.commit(scene.proj, 'main', { 'src/ten.ts': `${lines.join('\n')}\n` }, 'Ten lines', dev, 'main');
  const changed = [...lines.slice(0, 3), 'line four', 'line four and a half', ...lines.slice(4)];
  s.commit(scene.proj, 'wide', { 'src/ten.ts': `${changed.join('\n')}\n` }, 'Rewrite line 4', dev, 'main');
  wide = s.addMergeRequest(scene.proj, { title: 'Wide', author: 'dev', source: 'wide' }).iid;
  conn = await startServer(gl);
});
afterAll(async () => {
  await conn.close();
  await gl.close();
});

const P = { project_id: 'grp/proj', merge_request_iid: 1 };
const writes = () => gl.api.requests.filter((r) => r.method !== 'GET');
type Note = { id: number; discussion?: string; resolved?: boolean; position?: string; body: string };
const notesOf = async (iid = 1) =>
  (
    (await callChecked(conn, 'list_merge_request_discussions', { ...P, merge_request_iid: iid }))
      .structuredContent as { notes: Note[] }
  ).notes;

describe('threads round-trip', () => {
  it('list gives the full thread id and resolved state; reply and resolve use that id', async () => {
    const listed = await callChecked(conn, 'list_merge_request_discussions', P);
    const thread = (listed.structuredContent as { notes: Note[] }).notes.find((n) => n.position);
    expect(thread?.discussion).toMatch(/^[0-9a-f]{40}$/);
    expect(thread?.resolved).toBe(false);
    expect(listed.text).toContain(`[thread ${thread?.discussion}] (unresolved)`);
    const id = thread?.discussion ?? '';

    const reply = await callChecked(conn, 'create_merge_request_discussion_note', {
      ...P,
      discussion_id: id,
      body: 'Renamed it.',
    });
    expect(reply.isError).toBeFalsy();
    expect(reply.text).toContain(`Replied in thread ${id}`);
    const resolved = await callChecked(conn, 'resolve_merge_request_thread', { ...P, discussion_id: id });
    expect(resolved.structuredContent).toEqual({ discussion: id, resolved: true });
    const after = (await notesOf()).filter((n) => n.discussion === id);
    expect(after.map((n) => n.body)).toContain('Renamed it.');
    expect(after.every((n) => n.resolved === true)).toBe(true);

    const reopened = await callChecked(conn, 'resolve_merge_request_thread', {
      ...P,
      discussion_id: id,
      resolved: false,
    });
    expect(reopened.text).toContain('is unresolved');
    expect((await notesOf()).find((n) => n.discussion === id)?.resolved).toBe(false);
  });

  it('resolving an individual note says it is not resolvable, not that the token lacks a scope', async () => {
    const added = await callChecked(conn, 'add_merge_request_note', { ...P, body: 'Looks fine overall.' });
    expect(added.isError).toBeFalsy();
    const id = (await notesOf()).find((n) => n.body === 'Looks fine overall.')?.discussion ?? '';
    expect(id).toMatch(/^[0-9a-f]{40}$/);
    const r = await callChecked(conn, 'resolve_merge_request_thread', { ...P, discussion_id: id });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('is not resolvable (an individual note); only threads can be resolved');
    expect(r.text).not.toContain('scope');
  });

  it('a reply to a thread that does not exist is GitLab’s 404, not a crash', async () => {
    const r = await callChecked(conn, 'create_merge_request_discussion_note', {
      ...P,
      discussion_id: 'f'.repeat(40),
      body: 'x',
    });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/404/);
  });
});

describe('create_merge_request_thread', () => {
  it('a general thread has no position; a diff thread gets the MR diff refs and the line', async () => {
    const general = await callChecked(conn, 'create_merge_request_thread', { ...P, body: 'Overall fine.' });
    expect(general.isError).toBeFalsy();
    gl.api.clearRequests();
    const line = await callChecked(conn, 'create_merge_request_thread', {
      ...P,
      body: 'Why Number()?',
      path: 'src/app.ts',
      new_line: 1,
    });
    expect(line.isError, line.text).toBeFalsy();
    const [post] = writes();
    const position = JSON.parse(post?.body ?? '{}').position;
    const mr = scene.proj.repo.resolve('feat')?.id;
    expect(position).toMatchObject({
      position_type: 'text',
      head_sha: mr,
      new_path: 'src/app.ts',
      old_path: 'src/app.ts',
      new_line: 1,
    });
    expect(position.base_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(line.text).toContain('on src/app.ts:1');
  });

  it('an old (removed) line is placed on the old side', async () => {
    const r = await callChecked(conn, 'create_merge_request_thread', {
      ...P,
      merge_request_iid: wide,
      body: 'This line was fine.',
      path: 'src/ten.ts',
      old_line: 4,
    });
    expect(r.isError, r.text).toBeFalsy();
  });

  it('a line the diff does not show is refused before anything is posted', async () => {
    gl.api.clearRequests();
    const r = await callChecked(conn, 'create_merge_request_thread', {
      ...P,
      merge_request_iid: wide,
      body: 'x',
      path: 'src/ten.ts',
      new_line: 9,
    });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(
      /line 9 of the new file is not in the diff at [0-9a-f]{12}\. Nothing was posted\./,
    );
    const other = await callChecked(conn, 'create_merge_request_thread', {
      ...P,
      body: 'x',
      path: 'README.md',
      new_line: 1,
    });
    expect(other.text).toContain('the merge request does not change this file');
    expect(writes()).toEqual([]);
  });
});

describe('multi-line comments (line_range)', () => {
  // The fake's diffs have no context lines: src/ten.ts is one hunk, -old 4, +new 4, +new 5.
  /** GitLab's line code of a diff row: SHA-1 of the path, old and new parser positions. */
  const code = (oldPos: number, newPos: number) =>
    `${createHash('sha1').update('src/ten.ts').digest('hex')}_${oldPos}_${newPos}`;
  const W = () => ({ ...P, merge_request_iid: wide, path: 'src/ten.ts' });
  const lastPost = () => JSON.parse(writes().at(-1)?.body ?? '{}');

  it('a range of added lines gets start and end line codes of the new side', async () => {
    gl.api.clearRequests();
    const r = await callChecked(conn, 'create_merge_request_thread', {
      ...W(),
      body: 'These two lines repeat themselves.',
      start_line: 4,
      new_line: 5,
    });
    expect(r.isError, r.text).toBeFalsy();
    // Rows of src/ten.ts's diff: -old 4 (new counter 4), +new 4 and +new 5 (old counter 5).
    expect(lastPost().position).toMatchObject({
      new_line: 5,
      line_range: {
        start: { line_code: code(5, 4), type: 'new', new_line: 4 },
        end: { line_code: code(5, 5), type: 'new', new_line: 5 },
      },
    });
    expect(r.text).toContain('on src/ten.ts:4-5');
    const listed = (await notesOf(wide)).find((n) => n.body === 'These two lines repeat themselves.');
    expect(listed?.position).toBe('src/ten.ts:4-5');
  });

  it('a range may start on the old side (a removed line) and end on the new side', async () => {
    gl.api.clearRequests();
    const r = await callChecked(conn, 'create_merge_request_thread', {
      ...W(),
      body: 'Old line 4 became these.',
      start_line: 4,
      start_side: 'old',
      new_line: 5,
    });
    expect(r.isError, r.text).toBeFalsy();
    expect(lastPost().position.line_range.start).toEqual({ line_code: code(4, 4), type: 'old', old_line: 4 });
  });

  it('a suggestion on a range replaces the range: a bare fence gets -N+0', async () => {
    gl.api.clearRequests();
    const r = await callChecked(conn, 'create_merge_request_thread', {
      ...W(),
      body: '```suggestion\nline 4\n```',
      start_line: 4,
      new_line: 5,
    });
    expect(r.isError, r.text).toBeFalsy();
    expect(lastPost().body).toBe('```suggestion:-1+0\nline 4\n```');
  });

  it('a suggestion fenced in a block quote or list item on a range gets -N+0 too, or is refused', async () => {
    gl.api.clearRequests();
    const r = await callChecked(conn, 'create_merge_request_thread', {
      ...W(),
      body: '> ```suggestion\n> line 4\n> ```',
      start_line: 4,
      new_line: 5,
    });
    expect(r.isError, r.text).toBeFalsy();
    expect(lastPost().body).toBe('> ```suggestion:-1+0\n> line 4\n> ```');
    const other = await callChecked(conn, 'create_merge_request_thread', {
      ...W(),
      body: '- ```suggestion:-0+1\n  x\n  ```',
      start_line: 4,
      new_line: 5,
    });
    expect(other.isError).toBe(true);
    expect(other.text).toMatch(/suggestion:-0\+1 does not replace the 2 lines commented on/);
  });

  it('each reason a range cannot be placed is named, and nothing is posted', async () => {
    gl.api.clearRequests();
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ start_line: 5, new_line: 4 }, 'x', /the range must start before its last line/],
      [{ start_line: 9, new_line: 5 }, 'x', /start line 9 of the new file is not in the diff/],
      [
        { start_line: 4, start_side: 'old', new_line: 5 },
        '```suggestion\nx\n```',
        /suggestions replace lines of the new file/,
      ],
      [
        { start_line: 4, new_line: 5 },
        '```suggestion:-0+1\nx\n```',
        /suggestion:-0\+1 does not replace the 2 lines commented on/,
      ],
    ];
    for (const [line, body, why] of cases) {
      const r = await callChecked(conn, 'create_merge_request_thread', { ...W(), body, ...line });
      expect(r.isError, JSON.stringify(line)).toBe(true);
      expect(r.text).toMatch(why);
      expect(r.text).toContain('Nothing was posted');
    }
    expect(writes()).toEqual([]);
  });

  it('a draft note takes the same range, with line codes only (the Draft Notes API refuses line numbers there)', async () => {
    gl.api.clearRequests();
    const r = await callChecked(conn, 'create_draft_note', {
      ...W(),
      body: 'Pending: merge these.',
      start_line: 4,
      new_line: 5,
    });
    expect(r.isError, r.text).toBeFalsy();
    expect(lastPost().position.line_range).toEqual({
      start: { line_code: code(5, 4), type: 'new' },
      end: { line_code: code(5, 5), type: 'new' },
    });
    expect(r.text).toContain('on src/ten.ts:4-5');
    const deleted = await callChecked(conn, 'delete_draft_note', {
      ...P,
      merge_request_iid: wide,
      draft_note_id: (r.structuredContent as { draft: { id: number } }).draft.id,
    });
    expect(deleted.isError).toBeFalsy();
  });
});

describe('suggestions are checked against the head', () => {
  const suggest = (body: string, extra: Record<string, unknown>) =>
    callChecked(conn, 'create_merge_request_thread', {
      ...P,
      merge_request_iid: wide,
      path: 'src/ten.ts',
      body,
      ...extra,
    });

  it('a suggestion on an added line, and one spanning lines that exist, are posted', async () => {
    const one = await suggest('```suggestion\nline 4\n```', { new_line: 4 });
    expect(one.isError, one.text).toBeFalsy();
    const span = await suggest('```suggestion:-3+5\nline 1\n```', { new_line: 5 });
    expect(span.isError, span.text).toBeFalsy();
  });

  it('each reason a suggestion would not apply is named, and nothing is posted', async () => {
    gl.api.clearRequests();
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ old_line: 4 }, '```suggestion\nx\n```', /suggestions replace lines of the new file: give new_line/],
      [{ new_line: 4 }, '```suggestion:-4+0\nx\n```', /suggestion:-4\+0 on line 4 starts before line 1/],
      [{ new_line: 5 }, '```suggestion:-0+7\nx\n```', /ends after the last line \(11\)/],
      [{ new_line: 4 }, '```suggestion:-101+0\nx\n```', /at most 100 lines above and below/],
      [{ new_line: 4, head_sha: '0'.repeat(40) }, '```suggestion\nx\n```', /is not the merge request's head/],
      [{ new_line: 8 }, '```suggestion\nx\n```', /line 8 of the new file is not in the diff/],
      // Fenced inside a block quote or a list item: still a suggestion GitLab renders and applies.
      [
        { new_line: 4 },
        '> ```suggestion:-5+5\n> x\n> ```',
        /suggestion:-5\+5 on line 4 starts before line 1/,
      ],
      [
        { new_line: 4 },
        '- ```suggestion:-5+5\n  x\n  ```',
        /suggestion:-5\+5 on line 4 starts before line 1/,
      ],
      [{ new_line: 5 }, '1. > ~~~suggestion:-0+7\n   > x\n   > ~~~', /ends after the last line \(11\)/],
      [
        { old_line: 4 },
        '* ```suggestion\n  x\n  ```',
        /suggestions replace lines of the new file: give new_line/,
      ],
    ];
    for (const [line, body, why] of cases) {
      const r = await suggest(body, line);
      expect(r.isError, body).toBe(true);
      expect(r.text).toMatch(why);
      expect(r.text).toContain('the suggestion would not apply');
    }
    const general = await callChecked(conn, 'create_merge_request_thread', {
      ...P,
      body: '```suggestion\nx\n```',
    });
    expect(general.text).toMatch(/A suggestion goes on a diff line/);
    const reply = await callChecked(conn, 'create_merge_request_discussion_note', {
      ...P,
      discussion_id: 'a'.repeat(40),
      body: '~~~suggestion\nx\n~~~',
    });
    expect(reply.isError).toBe(true);
    expect(writes()).toEqual([]);
  });

  it('--lockdown withholds a suggestion by a user below Developer on the public project', async () => {
    const s = gl.state;
    const mr = scene.proj.mergeRequests.find((m) => m.iid === wide);
    if (!mr) throw new Error('no MR');
    s.addNote(mr, 'mallory', '```suggestion\nrm -rf /\n```', {
      position: { position_type: 'text', new_path: 'src/ten.ts', old_path: 'src/ten.ts', new_line: 4 },
    });
    const locked = await startServer(gl, ['--lockdown']);
    try {
      const r = await callChecked(locked, 'list_merge_request_discussions', {
        ...P,
        merge_request_iid: wide,
      });
      expect(r.text).not.toContain('rm -rf');
      expect(r.text).toContain('withheld by --lockdown: mallory');
    } finally {
      await locked.close();
    }
    expect((await notesOf(wide)).some((n) => n.body.includes('rm -rf'))).toBe(true);
  });
});

describe('scope and read-only', () => {
  const CALLS: Array<[string, Record<string, unknown>]> = [
    ['list_merge_request_discussions', {}],
    ['create_merge_request_thread', { body: 'x' }],
    ['create_merge_request_discussion_note', { discussion_id: 'a'.repeat(40), body: 'x' }],
    ['resolve_merge_request_thread', { discussion_id: 'a'.repeat(40) }],
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

  it('--read-only serves the thread list and none of the thread writes', async () => {
    const ro = await startServer(gl, ['--read-only']);
    try {
      const names = (await ro.tools()).map((t) => t.name);
      expect(names).toContain('list_merge_request_discussions');
      for (const [name] of CALLS.slice(1)) expect(names).not.toContain(name);
    } finally {
      await ro.close();
    }
  });
});

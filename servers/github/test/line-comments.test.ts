/**
 * Issue 29 (reviews): create_pull_request_review posts line comments on a line or a range, on
 * either side, in one review submitted with its verdict; a ```suggestion is checked to apply to the
 * head before anything is posted (RIGHT side, by line, against the head, on lines of the diff),
 * and a refusal says why.
 */
import { callChecked, structured } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gh: FakeGitHub;
let conn: Awaited<ReturnType<typeof startServer>>;
let pr = 0;
const base = { owner: 'acme', repo: 'demo' };
const suggestion = (code: string) => `Simpler:\n\`\`\`suggestion\n${code}\n\`\`\``;

beforeAll(async () => {
  const started = await startScene();
  gh = started.gh;
  const s = gh.state;
  const review = s.addPull(started.scene.demo, {
    title: 'Multi',
    body: '',
    user: 'maintainer',
    head: 'multi',
    files: {
      'src/multi.ts': [
        'const a = 1;',
        'const b = 2;',
        'const c = 3;',
        'const d = 4;',
        'const e = 5;',
        '',
      ].join('\n'),
      'README.md': '# demo\n\nA better demo.\n',
    },
  });
  pr = review.number;
  conn = await startServer(gh);
});
afterAll(async () => {
  await conn?.close();
  await gh?.close();
});

type Comment = { path: string; line: number; startLine?: number; side?: string; body: string };
const posted = () => gh.api.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/reviews'));

describe('line comments and suggestions', () => {
  it('a range on the new side, a line on the old side and a suggestion go out in one review with its verdict', async () => {
    const r = await callChecked(conn, 'create_pull_request_review', {
      ...base,
      pull_number: pr,
      event: 'REQUEST_CHANGES',
      body: 'A few things.',
      comments: [
        { path: 'src/multi.ts', start_line: 2, line: 4, side: 'RIGHT', body: 'These three belong together.' },
        { path: 'README.md', line: 3, side: 'LEFT', body: 'The old wording was clearer.' },
        { path: 'src/multi.ts', start_line: 1, line: 2, body: suggestion('const [a, b] = [1, 2];') },
      ],
    });
    expect(r.isError, r.text).toBeFalsy();
    expect(structured<{ review: { state: string } }>(r).review.state).toBe('CHANGES_REQUESTED');
    expect(posted()).toHaveLength(1);
    const list = structured<{ comments: Comment[] }>(
      await callChecked(conn, 'get_pull_request_comments', { ...base, pull_number: pr }),
    ).comments;
    expect(list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'src/multi.ts', startLine: 2, line: 4, side: 'RIGHT' }),
        expect.objectContaining({ path: 'README.md', line: 3, side: 'LEFT' }),
        expect.objectContaining({ path: 'src/multi.ts', startLine: 1, line: 2 }),
      ]),
    );
  });

  it('a suggestion that would not apply is refused, saying why, and nothing is posted', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ path: 'src/app.ts', line: 1, body: suggestion('x') }, /does not change this file/],
      [
        { path: 'src/multi.ts', start_line: 4, line: 9, body: suggestion('x') },
        /lines 6, 7, 8, 9 of src\/multi\.ts at \w{12} are not in the diff/,
      ],
      [{ path: 'README.md', line: 3, side: 'LEFT', body: suggestion('x') }, /LEFT \(old\) side/],
      [{ path: 'src/multi.ts', position: 2, body: suggestion('x') }, /give line/],
      // Fenced inside a block quote or a list item (a CommonMark fenced block all the same).
      [{ path: 'src/app.ts', line: 1, body: '> ```suggestion\n> x\n> ```' }, /does not change this file/],
      [
        { path: 'README.md', line: 3, side: 'LEFT', body: '- ```suggestion\n  x\n  ```' },
        /LEFT \(old\) side/,
      ],
    ];
    for (const [comment, why] of cases) {
      gh.api.clearRequests();
      const r = await callChecked(conn, 'create_pull_request_review', {
        ...base,
        pull_number: pr,
        event: 'COMMENT',
        body: 'x',
        comments: [{ path: 'src/multi.ts', line: 1, body: 'fine' }, comment],
      });
      expect(r.isError, JSON.stringify(comment)).toBe(true);
      expect(r.text).toMatch(/comments\[1\] \([^)]+\): its suggestion would not apply/);
      expect(r.text).toMatch(why);
      expect(r.text).toContain('Nothing was posted');
      expect(posted()).toEqual([]);
    }
  });

  it('a suggestion against a commit that is not the head is refused', async () => {
    const demo = gh.state.repo('acme', 'demo');
    const old = demo?.branches.get('main') ?? '';
    const r = await callChecked(conn, 'create_pull_request_review', {
      ...base,
      pull_number: pr,
      event: 'COMMENT',
      body: 'x',
      commit_id: old,
      comments: [{ path: 'src/multi.ts', line: 1, body: suggestion('const a = 0;') }],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`commit_id ${old} is not the head`);
  });

  it('start_line must come before line', async () => {
    const r = await callChecked(conn, 'create_pull_request_review', {
      ...base,
      pull_number: pr,
      event: 'COMMENT',
      body: 'x',
      comments: [{ path: 'src/multi.ts', start_line: 4, line: 2, body: 'x' }],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('start_line needs line and must be less than it');
  });
});

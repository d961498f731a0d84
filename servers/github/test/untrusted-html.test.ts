/**
 * GH-04 bypass regressions end to end: an issue and comments carrying the HTML and Markdown that
 * got past the regex-based sanitiser (slash-separated attributes, meta refresh, a tag left open
 * at the end, ZWJ inside a link scheme, data: hrefs, entities, SVG script) come back from
 * get_issue and get_issue_comments through the built server neutralised, visible text kept.
 */
import { assertNoInvisible, callChecked, structured } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

const BODY = [
  'Repro steps below.',
  '<img/onerror=alert(1)/src=x>',
  '<svg/onload=alert(1)>',
  '<a/href="javascript:alert(1)">x</a>',
  '<body/onload=alert(1)>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '[click](java\u200Dscript:alert(1)) and [again](java\u200Cscript:alert(1))',
  '<a href="data:text/html,<script>alert(1)</script>">y</a>',
  'Trailing <img src=x onerror=alert(1) ',
].join('\n');

const COMMENTS = [
  '<A HREF="&#106;avascript:alert(1)">z</A> <IMG SRC=x ONERROR=alert(1)>',
  'Before <svg><script>alert(1)</script></svg> after',
  // A comment that ends inside a tag, then one that would finish it.
  'Broken <img src=x alt="',
  '" onerror=alert(1)>',
];

/** A live tag with an event handler, or a live unsafe URL, in rendered text (coarse; the unit tests parse). */
const LIVE_HANDLER = /<[a-z][^<>]*[\s/"']on[a-z]+\s*=/i;
const LIVE_SCRIPT_URL = /(?:href|src|content)\s*=\s*["']?[^"'>]*(?:javascript|data):/i;

let gh: FakeGitHub;
let conn: Awaited<ReturnType<typeof startServer>>;
let issueNumber = 0;
beforeAll(async () => {
  ({ gh } = await startScene());
  const demo = gh.state.repo('acme', 'demo');
  if (!demo) throw new Error('scene without acme/demo');
  issueNumber = gh.state.addIssue(demo, {
    title: 'Hostile <img/onerror=alert(1)/src=x> title',
    body: BODY,
    user: 'mallory',
    comments: COMMENTS.map((body) => ({ user: 'mallory', body })),
  }).number;
  conn = await startServer(gh);
});
afterAll(async () => {
  await conn.close();
  await gh.close();
});

function expectInert(text: string, label: string) {
  assertNoInvisible(text, label);
  const plain = text.replace(/[\u200C\u200D]/g, ''); // what a later strip of ZWJ/ZWNJ would leave
  expect(plain, label).not.toMatch(LIVE_HANDLER);
  expect(plain, label).not.toMatch(LIVE_SCRIPT_URL);
  expect(plain, label).not.toMatch(/javascript:alert/i);
  expect(plain, label).not.toMatch(/<meta\b/i);
  expect(plain, label).not.toMatch(/<script\b/i);
}

describe('GH-04 HTML and Markdown bypasses', () => {
  it('GH-04 get_issue: slash-separated attributes, meta refresh, open tag, ZWJ scheme, data: href', async () => {
    const r = await callChecked(conn, 'get_issue', {
      owner: 'acme',
      repo: 'demo',
      issue_number: issueNumber,
    });
    expect(r.isError).toBeFalsy();
    const { body, title } = structured<{ issue: { body: string; title: string } }>(r).issue;
    expect(body).toBe(
      [
        'Repro steps below.',
        '<img>',
        '<svg>',
        '<a href="#unsafe-link-removed">x</a>',
        '<body>',
        '⟦meta tag removed⟧',
        'click ⟦unsafe link removed (javascript:)⟧ and again ⟦unsafe link removed (javascript:)⟧',
        '<a href="#unsafe-link-removed">y</a>',
        'Trailing &lt;img src=x onerror=alert(1) ',
      ].join('\n'),
    );
    expect(title).toBe('Hostile <img> title');
    for (const [text, label] of [
      [body, 'structured body'],
      [r.text, 'text'],
    ] as const)
      expectInert(text, label);
    expect(structured<{ neutralized: string }>(r).neutralized).toMatch(
      /1 dangerous HTML element, 5 event-handler attributes, 4 non-http\(s\) links/,
    );
  });

  it('GH-04 get_issue_comments: entities, SVG script, and a tag split across two comments', async () => {
    const r = await callChecked(conn, 'get_issue_comments', {
      owner: 'acme',
      repo: 'demo',
      issue_number: issueNumber,
    });
    expect(r.isError).toBeFalsy();
    const bodies = structured<{ comments: { body: string }[] }>(r).comments.map((c) => c.body);
    expect(bodies).toEqual([
      '<A HREF="#unsafe-link-removed">z</A> <IMG SRC=x>',
      'Before <svg>⟦script element removed⟧</svg> after',
      'Broken &lt;img src=x alt="',
      '" onerror=alert(1)>',
    ]);
    expectInert(r.text, 'text');
    expectInert(bodies.join(''), 'comments joined');
  });
});

/**
 * Issue 29, "why is it red": get_ci_failures digests a seeded red run with several failed jobs in
 * one call — each failed Actions job with its failed step, first error line and a bounded log tail
 * (terminal sequences and timestamps removed), a third-party check with its output summary, a
 * failed commit status — for a pull request or a ref; confined to --repos before any request.
 */
import { callChecked, structured } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gh: FakeGitHub;
let conn: Awaited<ReturnType<typeof startServer>>;
let pr = 0;
let head = '';
const E = '\u001b';
const base = { owner: 'acme', repo: 'demo' };
const stamp = (i: number) => `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.1234567Z`;

beforeAll(async () => {
  const started = await startScene();
  gh = started.gh;
  const s = gh.state;
  const demo = started.scene.demo;
  const red = s.addPull(demo, {
    title: 'Red',
    body: '',
    user: 'octo',
    head: 'red',
    files: { 'src/red.ts': 'export const red = 1;\n' },
  });
  pr = red.number;
  head = s.headSha(demo, red);
  const unitLog = [
    ...Array.from({ length: 400 }, (_, i) => `${stamp(i)} ${E}[32m✓${E}[0m test ${i} passed`),
    `${stamp(400)} ${E}[31mError: expected 42, got 41${E}[0m`,
    `${stamp(401)}     at src/red.test.ts:3:10`,
    ...Array.from({ length: 100 }, (_, i) => `${stamp(i)} cleanup ${i}`),
    `${stamp(999)} ##[error]Process completed with exit code 1.`,
  ].join('\n');
  s.addRun(demo, {
    name: 'CI',
    branch: 'red',
    event: 'pull_request',
    conclusion: 'failure',
    jobs: [
      { name: 'lint', conclusion: 'success', log: 'ok\n' },
      {
        name: 'unit',
        conclusion: 'failure',
        steps: [
          { name: 'Set up job', conclusion: 'success' },
          { name: 'Run npm test', conclusion: 'failure' },
        ],
        log: unitLog,
      },
      {
        name: 'typecheck',
        conclusion: 'failure',
        steps: [{ name: 'Run tsc', conclusion: 'failure' }],
        log: `${stamp(1)} 0 errors in lib\n${stamp(2)} src/a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.\n${stamp(3)} ##[error]Process completed with exit code 2.\n`,
      },
    ],
  });
  s.addCheckRun(demo, head, {
    name: 'sonar',
    conclusion: 'failure',
    title: 'Quality gate failed',
    summary: '2 new bugs\u200B, coverage 61% (< 80%)',
    app: { slug: 'sonarcloud', name: 'SonarCloud' },
  });
  s.addStatus(demo, head, {
    state: 'failure',
    context: 'ci/legacy',
    description: 'Jenkins build #12 failed',
  });
  s.addStatus(demo, head, { state: 'success', context: 'ci/docs' });
  conn = await startServer(gh, ['--toolsets', 'actions']);
});
afterAll(async () => {
  await conn?.close();
  await gh?.close();
});

type Failure = {
  name: string;
  kind: string;
  conclusion: string | null;
  url: string | null;
  failedSteps?: string[];
  firstError?: { line: number; text: string };
  logTail?: string;
  totalLines?: number;
  title?: string | null;
  summary?: string | null;
  description?: string | null;
};
type Digest = { sha: string; verdict: string; checks: number; failures: Failure[] };

describe('get_ci_failures', () => {
  it('digests every failed job, check and status of a pull request in one call', async () => {
    gh.api.clearRequests();
    const r = await callChecked(conn, 'get_ci_failures', { ...base, pull_number: pr });
    expect(r.isError).toBeFalsy();
    const d = structured<Digest>(r);
    expect(d).toMatchObject({ sha: head, verdict: 'failure', checks: 6 });
    expect(d.failures.map((f) => [f.name, f.kind])).toEqual([
      ['unit', 'actions'],
      ['typecheck', 'actions'],
      ['sonar', 'check'],
      ['ci/legacy', 'status'],
    ]);
    const unit = d.failures[0];
    expect(unit?.failedSteps).toEqual(['Run npm test']);
    expect(unit?.firstError).toEqual({ line: 401, text: 'Error: expected 42, got 41' });
    expect(unit?.totalLines).toBe(503);
    expect(unit?.logTail?.split('\n')).toHaveLength(25);
    expect(unit?.logTail).toMatch(/##\[error\]Process completed with exit code 1\.$/);
    const typecheck = d.failures[1];
    expect(typecheck?.firstError?.text).toContain('error TS2322');
    expect(d.failures[2]).toMatchObject({ title: 'Quality gate failed', conclusion: 'failure' });
    expect(d.failures[2]?.summary).toContain('2 new bugs, coverage 61%');
    expect(d.failures[3]).toMatchObject({ description: 'Jenkins build #12 failed', conclusion: 'failure' });
    for (const text of [r.text, JSON.stringify(r.structuredContent)]) {
      expect(text).not.toMatch(/\[\d+(;\d*)*m/);
      expect(text).not.toContain(E);
      expect(text).not.toMatch(/2026-01-01T00:00/);
    }
    expect(r.text).toContain('failure, 4 of 6 checks failed');
    expect(r.text).toContain('failed step: Run npm test');
    expect(r.text).toContain('first error (line 401): Error: expected 42, got 41');
    // One call: the PR, check runs, status, then job and log of each failed Actions job.
    expect(gh.api.requests.map((q) => q.path.replace(/^.*\/repos\/acme\/demo/, ''))).toHaveLength(7);
  });

  it('takes a ref instead of a pull request and names the commit', async () => {
    const d = structured<Digest>(await callChecked(conn, 'get_ci_failures', { ...base, ref: 'red' }));
    expect(d.sha).toBe(head);
    expect(d.failures).toHaveLength(4);
  });

  it("another ref's failures are its own: main's failed test job only", async () => {
    const r = await callChecked(conn, 'get_ci_failures', { ...base, ref: 'main' });
    const d = structured<Digest>(r);
    expect(d.failures).toEqual([
      expect.objectContaining({
        name: 'test',
        kind: 'actions',
        firstError: { line: 301, text: 'Error: expected 42' },
      }),
    ]);
  });

  it('neither or both of pull_number and ref is an actionable error', async () => {
    for (const args of [{}, { pull_number: pr, ref: 'red' }]) {
      const r = await callChecked(conn, 'get_ci_failures', { ...base, ...args });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('exactly one of pull_number and ref');
    }
  });

  it('--repos refuses another repository before any request', async () => {
    const scoped = await startServer(gh, ['--toolsets', 'actions', '--repos', 'acme/other']);
    try {
      gh.api.clearRequests();
      const r = await callChecked(scoped, 'get_ci_failures', { ...base, pull_number: pr });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('--repos');
      expect(gh.api.requests.filter((q) => q.path.includes('/repos/'))).toEqual([]);
    } finally {
      await scoped.close();
    }
  });
});

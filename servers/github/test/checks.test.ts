/**
 * Issue 28 item 6: get_pull_request_status sees check runs (GitHub Actions jobs and third-party
 * apps) beside the combined commit status, with one verdict over both; item 3: job logs come
 * without terminal control sequences (whole sequences, remnants whose ESC is gone).
 */
import { callChecked, structured } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gh: FakeGitHub;
let conn: Awaited<ReturnType<typeof startServer>>;
let actionsPr = 0;
let pendingPr = 0;
let passingPr = 0;
let jobId = 0;
const E = '\u001b';
const base = { owner: 'acme', repo: 'demo' };

beforeAll(async () => {
  const started = await startScene();
  gh = started.gh;
  const s = gh.state;
  const demo = started.scene.demo;
  // A repository that uses Actions only: no commit statuses, a failed job.
  const red = s.addPull(demo, {
    title: 'Red on Actions',
    body: '',
    user: 'octo',
    head: 'red',
    files: { 'src/red.ts': 'export const red = 1;\n' },
  });
  actionsPr = red.number;
  const run = s.addRun(demo, {
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
          { name: 'Run tests', conclusion: 'failure' },
        ],
        log: [
          `2026-01-01T00:00:00.0000000Z ##[group]Run npm test`,
          `2026-01-01T00:00:01.0000000Z ${E}[36;1mnpm test${E}[0m`,
          `2026-01-01T00:00:02.0000000Z [36;1mshell: /usr/bin/bash -e {0}[0m`,
          `2026-01-01T00:00:03.0000000Z ${E}[0K${E}[31;1mFAIL${E}[0m src/red.test.ts`,
          `2026-01-01T00:00:04.0000000Z ##[error]Process completed with exit code 1.`,
        ].join('\n'),
      },
    ],
  });
  jobId = run.jobs[1]?.id ?? 0;
  const redHead = s.headSha(demo, red);
  s.addCheckRun(demo, redHead, {
    name: 'coverage',
    conclusion: 'neutral',
    title: 'Coverage 81%',
    summary: 'Coverage went down by 0.2%',
  });

  // Checks still running, statuses green.
  const pending = s.addPull(demo, {
    title: 'Pending',
    body: '',
    user: 'octo',
    head: 'pending',
    files: { 'src/pending.ts': 'export const p = 1;\n' },
  });
  pendingPr = pending.number;
  const pendingHead = s.headSha(demo, pending);
  s.addStatus(demo, pendingHead, { state: 'success', context: 'ci/legacy' });
  s.addCheckRun(demo, pendingHead, { name: 'deploy-preview', status: 'in_progress' });

  // Everything passed: a skipped check does not fail it.
  const green = s.addPull(demo, {
    title: 'Green',
    body: '',
    user: 'octo',
    head: 'green',
    files: { 'src/green.ts': 'export const g = 1;\n' },
  });
  passingPr = green.number;
  const greenHead = s.headSha(demo, green);
  s.addCheckRun(demo, greenHead, { name: 'build', conclusion: 'success' });
  s.addCheckRun(demo, greenHead, { name: 'docs', conclusion: 'skipped' });
  conn = await startServer(gh, ['--toolsets', 'pull_requests,actions']);
});
afterAll(async () => {
  await conn?.close();
  await gh?.close();
});

type Status = {
  verdict: string;
  sha: string;
  checkRunsTotal: number;
  checkRuns: {
    name: string;
    status: string;
    conclusion: string | null;
    url: string | null;
    app: string | null;
  }[];
  status: { totalCount: number };
};

describe('get_pull_request_status with check runs', () => {
  it('an Actions-only repository with a failed job reads as failure, each check run named with its URL', async () => {
    const r = await callChecked(conn, 'get_pull_request_status', { ...base, pull_number: actionsPr });
    expect(r.isError).toBeFalsy();
    const s = structured<Status>(r);
    expect(s.verdict).toBe('failure');
    expect(s.status.totalCount).toBe(0);
    expect(s.checkRunsTotal).toBe(3);
    expect(s.checkRuns).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'unit',
          status: 'completed',
          conclusion: 'failure',
          app: 'github-actions',
        }),
        expect.objectContaining({ name: 'lint', conclusion: 'success' }),
        expect.objectContaining({ name: 'coverage', conclusion: 'neutral', app: 'ci-app' }),
      ]),
    );
    const unit = s.checkRuns.find((c) => c.name === 'unit');
    expect(unit?.url).toContain(`/job/${jobId}`);
    expect(r.text).toMatch(/: failure \(1 failing\) — 3 check runs, 0 statuses/);
    expect(r.text).toContain(`- unit: failure (github-actions) ${unit?.url}`);
    const asked = gh.api.requests.find((q) => q.path.endsWith('/check-runs'));
    expect(asked?.query.get('filter')).toBe('latest');
  });

  it('a running check keeps the verdict pending although every status passed', async () => {
    const s = structured<Status>(
      await callChecked(conn, 'get_pull_request_status', { ...base, pull_number: pendingPr }),
    );
    expect(s.verdict).toBe('pending');
    expect(s.checkRuns).toEqual([expect.objectContaining({ name: 'deploy-preview', status: 'in_progress' })]);
  });

  it('success and skipped check runs without statuses read as success', async () => {
    const s = structured<Status>(
      await callChecked(conn, 'get_pull_request_status', { ...base, pull_number: passingPr }),
    );
    expect(s.verdict).toBe('success');
    expect(s.checkRunsTotal).toBe(2);
  });
});

describe('job logs without terminal control sequences', () => {
  it('get_job_logs removes whole sequences and remnants whose ESC is gone, keeping the text', async () => {
    const r = await callChecked(conn, 'get_job_logs', { ...base, job_id: jobId });
    const log = structured<{ log: string }>(r).log;
    for (const text of [log, r.text]) {
      expect(text).not.toMatch(/\[\d+(;\d*)*[mK]/);
      expect(text).not.toContain(E);
    }
    expect(log).toContain('Z npm test\n');
    expect(log).toContain('Z shell: /usr/bin/bash -e {0}\n');
    expect(log).toContain('Z FAIL src/red.test.ts\n');
    expect(log).toContain('##[error]Process completed with exit code 1.');
  });
});

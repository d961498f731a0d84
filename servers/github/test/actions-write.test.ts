/**
 * Issue 29 (CI writes): rerun_workflow_run, rerun_failed_jobs, cancel_workflow_run and
 * run_workflow (workflow_dispatch with inputs) in the actions toolset — off by default, left out
 * under --read-only, confined to --repos before any request; GitHub's refusals (cancelling a
 * completed run) come back as actionable errors.
 */
import { callChecked, structured } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gh: FakeGitHub;
let conn: Awaited<ReturnType<typeof startServer>>;
const base = { owner: 'acme', repo: 'demo' };
const WRITES = ['rerun_workflow_run', 'rerun_failed_jobs', 'cancel_workflow_run', 'run_workflow'];

beforeAll(async () => {
  ({ gh } = await startScene());
  conn = await startServer(gh, ['--toolsets', 'actions']);
});
afterAll(async () => {
  await conn?.close();
  await gh?.close();
});

const demo = () => {
  const r = gh.state.repo('acme', 'demo');
  if (!r) throw new Error('scene changed');
  return r;
};
const addRun = () =>
  gh.state.addRun(demo(), {
    name: 'CI',
    conclusion: 'failure',
    jobs: [
      { name: 'lint', conclusion: 'success', log: 'ok\n' },
      { name: 'unit', conclusion: 'failure', log: 'Error\n' },
    ],
  });

describe('CI writes', () => {
  it('rerun_failed_jobs queues the failed jobs only; rerun_workflow_run all of them', async () => {
    const run = addRun();
    const r = await callChecked(conn, 'rerun_failed_jobs', { ...base, run_id: run.id });
    expect(r.isError, r.text).toBeFalsy();
    expect(r.text).toContain(`Run ${run.id} of acme/demo: re-run of its failed jobs requested`);
    expect(run.jobs.map((j) => [j.name, j.status])).toEqual([
      ['lint', 'completed'],
      ['unit', 'queued'],
    ]);
    const again = addRun();
    await callChecked(conn, 'rerun_workflow_run', { ...base, run_id: again.id });
    expect(again.jobs.map((j) => j.status)).toEqual(['queued', 'queued']);
    expect(gh.api.requests.at(-1)?.path).toMatch(new RegExp(`/actions/runs/${again.id}/rerun$`));
  });

  it('cancel_workflow_run cancels a queued run; a completed one is an actionable error', async () => {
    const run = addRun();
    const done = await callChecked(conn, 'cancel_workflow_run', { ...base, run_id: run.id });
    expect(done.isError).toBe(true);
    expect(done.text).toContain('Cannot cancel a workflow run that is completed');
    run.status = 'in_progress';
    run.conclusion = null;
    const r = await callChecked(conn, 'cancel_workflow_run', { ...base, run_id: run.id });
    expect(r.isError, r.text).toBeFalsy();
    expect(run.conclusion).toBe('cancelled');
  });

  it('run_workflow dispatches with inputs; the new run lists under workflow_dispatch', async () => {
    const template = addRun();
    const file = template.path.split('/').pop() ?? '';
    const r = await callChecked(conn, 'run_workflow', {
      ...base,
      workflow_id: file,
      ref: 'main',
      inputs: [
        { name: 'environment', value: 'staging' },
        { name: 'dry_run', value: 'true' },
      ],
    });
    expect(r.isError, r.text).toBeFalsy();
    expect(structured<{ message: string }>(r).message).toContain(
      `Workflow ${file} of acme/demo dispatched on main`,
    );
    const dispatched = demo().runs.find((x) => x.event === 'workflow_dispatch');
    expect(dispatched?.inputs).toEqual({ environment: 'staging', dry_run: 'true' });
    const list = structured<{ runs: { event: string; status: string }[] }>(
      await callChecked(conn, 'list_workflow_runs', { ...base, event: 'workflow_dispatch' }),
    );
    expect(list.runs).toEqual([expect.objectContaining({ event: 'workflow_dispatch', status: 'queued' })]);
    const bad = await callChecked(conn, 'run_workflow', { ...base, workflow_id: '../x', ref: 'main' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('workflow_id');
  });

  it('off by default, left out under --read-only, and confined to --repos before any request', async () => {
    const plain = await startServer(gh);
    const ro = await startServer(gh, ['--toolsets', 'actions', '--read-only']);
    const scoped = await startServer(gh, ['--toolsets', 'actions', '--repos', 'acme/other']);
    try {
      const names = async (c: typeof plain) => (await c.tools()).map((t) => t.name);
      for (const w of WRITES) {
        expect(await names(plain)).not.toContain(w);
        expect(await names(ro)).not.toContain(w);
        expect(await names(conn)).toContain(w);
      }
      expect(await names(ro)).toContain('get_ci_failures');
      gh.api.clearRequests();
      const r = await callChecked(scoped, 'rerun_workflow_run', { ...base, run_id: 1 });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('--repos');
      expect(gh.api.requests.filter((q) => q.path.includes('/repos/'))).toEqual([]);
    } finally {
      await Promise.all([plain.close(), ro.close(), scoped.close()]);
    }
  });
});

/**
 * Issue 29, "why is it red": get_ci_failures digests a merge request's (or a ref's) red pipeline
 * with several failed jobs in one call — each with the log section it failed in, its first error
 * line and a bounded tail (terminal sequences and section markers stripped); a job allowed to
 * fail is marked so; confined to --projects before any request.
 */
import { callChecked, structured } from '@refmcp/test-harness';
import type { FakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gl: FakeGitLab;
let conn: Awaited<ReturnType<typeof startServer>>;
let mrIid = 0;
let pipelineId = 0;
let head = '';
const E = '\u001b';
const section = (name: string, at: number, body: string[], end = true) => [
  `section_start:${at}:${name}\r${E}[0K${E}[36;1m${name}${E}[0;m`,
  ...body,
  ...(end ? [`section_end:${at + 1}:${name}\r${E}[0K`] : []),
];

beforeAll(async () => {
  const scene = await startScene();
  gl = scene.gl;
  const s = gl.state;
  const proj = scene.scene.proj;
  s.commit(proj, 'red', { 'src/red.ts': 'export const red = 1;\n' }, 'Red', s.userId('dev'), 'main');
  head = proj.repo.resolve('red')?.id ?? '';
  mrIid = s.addMergeRequest(proj, { title: 'Red', author: 'dev', source: 'red' }).iid;
  const pipeline = s.addPipeline(proj, {
    ref: 'red',
    user: 'dev',
    jobs: [
      { name: 'build', stage: 'build', log: 'ok\n' },
      {
        name: 'unit',
        stage: 'test',
        status: 'failed',
        log: [
          ...section('prepare_script', 1700000000, ['Preparing']),
          ...section(
            'step_script',
            1700000002,
            [
              `${E}[32;1m$ npm test${E}[0;m`,
              ...Array.from({ length: 300 }, (_, i) => `${E}[32m✓${E}[0m case ${i}`),
              `${E}[31mAssertionError: expected 41 to equal 42${E}[0m`,
              ...Array.from({ length: 40 }, (_, i) => `    at frame ${i}`),
            ],
            false,
          ),
          `${E}[31;1mERROR: Job failed: exit code 1${E}[0;m`,
        ].join('\n'),
      },
      {
        name: 'lint',
        stage: 'test',
        status: 'failed',
        log: `${section('step_script', 1700000010, ['$ eslint .', 'src/a.ts: 1 error', '  1:1 error no-var'], false).join('\n')}\n`,
      },
      {
        name: 'audit',
        stage: 'test',
        status: 'failed',
        allowFailure: true,
        log: 'npm ERR! audit 3 vulnerabilities\n',
      },
    ],
  });
  pipelineId = pipeline.id;
  conn = await startServer(gl, ['--toolsets', 'pipelines']);
});
afterAll(async () => {
  await conn?.close();
  await gl?.close();
});

type Failure = {
  name: string;
  stage?: string;
  status: string;
  allowFailure?: boolean;
  failureReason?: string;
  section?: string;
  firstError?: { line: number; text: string };
  logTail?: string;
  totalLines?: number;
};
type Digest = { pipeline: { id: number; status: string; sha: string } | null; failures: Failure[] };

describe('get_ci_failures', () => {
  it("digests a merge request's red pipeline: every failed job, its section, first error and tail", async () => {
    gl.api.clearRequests();
    const r = await callChecked(conn, 'get_ci_failures', {
      project_id: 'grp/proj',
      merge_request_iid: mrIid,
    });
    expect(r.isError).toBeFalsy();
    const d = structured<Digest>(r);
    expect(d.pipeline).toMatchObject({ id: pipelineId, status: 'failed', sha: head });
    const byName = new Map(d.failures.map((f) => [f.name, f]));
    expect([...byName.keys()].sort()).toEqual(['audit', 'lint', 'unit']);
    const unit = byName.get('unit');
    expect(unit).toMatchObject({ stage: 'test', section: 'step_script', failureReason: 'script_failure' });
    expect(unit?.firstError?.text).toBe('AssertionError: expected 41 to equal 42');
    expect(unit?.logTail?.split('\n')).toHaveLength(25);
    expect(unit?.logTail).toMatch(/ERROR: Job failed: exit code 1$/);
    expect(byName.get('lint')?.firstError?.text).toBe('src/a.ts: 1 error');
    expect(byName.get('audit')).toMatchObject({ allowFailure: true });
    for (const text of [r.text, JSON.stringify(r.structuredContent)]) {
      expect(text).not.toMatch(/\[\d+(;\d*)*[mK]/);
      expect(text).not.toContain('section_');
      expect(text).not.toContain(E);
    }
    expect(r.text).toContain(`pipeline ${pipelineId} failed on red`);
    expect(r.text).toContain('2 failed jobs, 1 allowed to fail');
    expect(r.text).toContain('failed in section: step_script');
    // One call: the MR (its head pipeline), the failed jobs, one trace per failed job.
    const paths = gl.api.requests.map((q) => q.path);
    expect(paths.filter((p) => p.endsWith('/trace'))).toHaveLength(3);
    expect(paths).toHaveLength(5);
    const jobs = gl.api.requests.find((q) => q.path.endsWith(`/pipelines/${pipelineId}/jobs`));
    expect(jobs?.query.getAll('scope[]')).toEqual(['failed']);
  });

  it('takes a ref (branch or sha) instead of a merge request', async () => {
    for (const ref of ['red', head]) {
      const d = structured<Digest>(
        await callChecked(conn, 'get_ci_failures', { project_id: 'grp/proj', ref }),
      );
      expect(d.pipeline?.id, ref).toBe(pipelineId);
      expect(d.failures, ref).toHaveLength(3);
    }
  });

  it('a ref without a pipeline says so', async () => {
    const r = await callChecked(conn, 'get_ci_failures', { project_id: 'grp/proj', ref: 'dev' });
    expect(r.isError).toBeFalsy();
    expect(structured<Digest>(r)).toMatchObject({ pipeline: null, failures: [] });
    expect(r.text).toContain('no pipeline found');
  });

  it('neither or both of merge_request_iid and ref is an actionable error', async () => {
    for (const args of [{}, { merge_request_iid: mrIid, ref: 'red' }]) {
      const r = await callChecked(conn, 'get_ci_failures', { project_id: 'grp/proj', ...args });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('exactly one of merge_request_iid and ref');
    }
  });

  it('--projects refuses another project before any request', async () => {
    const scoped = await startServer(gl, ['--toolsets', 'pipelines', '--projects', 'grp/sub/proj']);
    try {
      gl.api.clearRequests();
      const r = await callChecked(scoped, 'get_ci_failures', { project_id: 'grp/proj', ref: 'red' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('--projects');
      expect(gl.api.requests.filter((q) => q.path.includes('/projects/'))).toEqual([]);
    } finally {
      await scoped.close();
    }
  });
});

/**
 * Issue 29, CI loop on GitLab (opt-in `pipelines` toolset): a merge request's pipelines; retry the
 * failed jobs of a red pipeline, cancel a running one, create one for a ref with variables — each
 * one POST; a missing ref is GitLab's 400 in words; --projects refuses before any request;
 * --read-only and the default toolsets serve none of the writes.
 */
import { callChecked } from '@refmcp/test-harness';
import type { FakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gl: FakeGitLab;
let scene: Awaited<ReturnType<typeof startScene>>['scene'];
let conn: Awaited<ReturnType<typeof startServer>>;
let red: number;
beforeAll(async () => {
  ({ gl, scene } = await startScene());
  red = gl.state.addPipeline(scene.proj, {
    ref: 'feat',
    user: 'dev',
    jobs: [
      { name: 'build', stage: 'build' },
      { name: 'test', status: 'failed', log: 'Error: expected 42\n' },
    ],
  }).id;
  conn = await startServer(gl, ['--toolsets', 'pipelines']);
});
afterAll(async () => {
  await conn.close();
  await gl.close();
});

const P = { project_id: 'grp/proj' };
const posts = () => gl.api.requests.filter((r) => r.method === 'POST');
type Pipeline = { id: number; status: string; ref: string };

describe('pipelines of a merge request and pipeline writes', () => {
  it('list_merge_request_pipelines lists the pipelines of !1 (its source branch)', async () => {
    const r = await callChecked(conn, 'list_merge_request_pipelines', { ...P, merge_request_iid: 1 });
    const list = (r.structuredContent as { pipelines: Pipeline[] }).pipelines;
    expect(list).toEqual([expect.objectContaining({ id: red, status: 'failed', ref: 'feat' })]);
    expect(r.text).toContain(`#${red} failed on feat`);
  });

  it('retry_pipeline re-runs the failed job; cancel_pipeline cancels it; one POST each', async () => {
    gl.api.clearRequests();
    const retried = await callChecked(conn, 'retry_pipeline', { ...P, pipeline_id: red });
    expect((retried.structuredContent as { pipeline: Pipeline }).pipeline.status).toBe('running');
    expect(retried.text).toContain(`Retried pipeline #${red}: now running.`);
    const job = scene.proj.pipelines.find((x) => x.id === red)?.jobs.find((j) => j.name === 'test');
    expect(job?.status).toBe('pending');
    const canceled = await callChecked(conn, 'cancel_pipeline', { ...P, pipeline_id: red });
    expect((canceled.structuredContent as { pipeline: Pipeline }).pipeline.status).toBe('canceled');
    expect(posts().map((r) => r.path)).toEqual([
      `/projects/grp%2Fproj/pipelines/${red}/retry`,
      `/projects/grp%2Fproj/pipelines/${red}/cancel`,
    ]);
  });

  it('create_pipeline runs one for a ref with variables; a missing ref is refused in GitLab’s words', async () => {
    gl.api.clearRequests();
    const r = await callChecked(conn, 'create_pipeline', {
      ...P,
      ref: 'feat',
      variables: [{ key: 'DEPLOY', value: 'no', variable_type: 'env_var' }],
    });
    const created = (r.structuredContent as { pipeline: Pipeline }).pipeline;
    expect(created).toMatchObject({ ref: 'feat', status: 'pending' });
    expect(JSON.parse(posts()[0]?.body ?? '{}')).toEqual({
      ref: 'feat',
      variables: [{ key: 'DEPLOY', value: 'no', variable_type: 'env_var' }],
    });
    const missing = await callChecked(conn, 'create_pipeline', { ...P, ref: 'no-such-branch' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('Reference not found');
    const bad = await callChecked(conn, 'create_pipeline', {
      ...P,
      ref: 'main',
      variables: [{ key: 'A B', value: 'x' }],
    });
    expect(bad.isError).toBe(true);
    expect(posts()).toHaveLength(2);
  });
});

describe('scope, read-only and toolsets', () => {
  const CALLS: Array<[string, Record<string, unknown>]> = [
    ['list_merge_request_pipelines', { merge_request_iid: 1 }],
    ['retry_pipeline', { pipeline_id: 1 }],
    ['cancel_pipeline', { pipeline_id: 1 }],
    ['create_pipeline', { ref: 'main' }],
  ];
  const WRITES = ['retry_pipeline', 'cancel_pipeline', 'create_pipeline'];

  it('--projects refuses another project before any request', async () => {
    const scoped = await startServer(gl, ['--toolsets', 'pipelines', '--projects', 'grp/sub/*']);
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

  it('--read-only leaves the writes out; the default toolsets serve none of these tools', async () => {
    const ro = await startServer(gl, ['--read-only', '--toolsets', 'all']);
    const plain = await startServer(gl);
    try {
      const names = (await ro.tools()).map((t) => t.name);
      expect(names).toContain('list_merge_request_pipelines');
      for (const w of WRITES) expect(names).not.toContain(w);
      const defaults = (await plain.tools()).map((t) => t.name);
      for (const [name] of CALLS) expect(defaults).not.toContain(name);
    } finally {
      await ro.close();
      await plain.close();
    }
  });
});

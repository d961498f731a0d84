/**
 * Issue 32, progress: get_ci_failures reports progress while it downloads job traces ("N of M failed
 * job logs read", a heartbeat: a large trace still shows the call alive), only to a call that carried
 * a progressToken; a cancel mid-download ends the call and nothing more is reported.
 */
import { type Connection, callChecked, cancelAtBeat } from '@refmcp/test-harness';
import type { FakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gl: FakeGitLab;
let conn: Connection;
let args: { project_id: string; merge_request_iid: number };
const progressLines = () => conn.stdoutLines().filter((l) => l.includes('"notifications/progress"'));

beforeAll(async () => {
  const scene = await startScene();
  gl = scene.gl;
  const s = gl.state;
  const proj = scene.scene.proj;
  s.commit(proj, 'slow', { 'src/slow.ts': 'export {};\n' }, 'Slow', s.userId('dev'), 'main');
  const iid = s.addMergeRequest(proj, { title: 'Slow', author: 'dev', source: 'slow' }).iid;
  s.addPipeline(proj, {
    ref: 'slow',
    user: 'dev',
    jobs: [
      { name: 'unit', stage: 'test', status: 'failed', log: 'Error: unit\n' },
      { name: 'lint', stage: 'test', status: 'failed', log: 'Error: lint\n' },
    ],
  });
  args = { project_id: 'grp/proj', merge_request_iid: iid };
  conn = await startServer(gl, ['--toolsets', 'pipelines']);
});
afterAll(async () => {
  await conn?.close();
  await gl?.close();
});

describe('progress of get_ci_failures', () => {
  it('heartbeats while traces download, and a cancel mid-download ends the call', async () => {
    // The traces never arrive: only the heartbeat shows the call is alive.
    gl.api.inject({ status: 200, hang: true, times: Number.POSITIVE_INFINITY, match: { path: /\/trace$/ } });
    try {
      const { outcome, seen } = await cancelAtBeat(conn, 'get_ci_failures', args);
      expect(outcome).toBe('aborted');
      expect(seen.map((p) => p.progress)).toEqual([0, 1]);
      expect(seen[0]?.message).toMatch(/^0 of 2 failed job logs read, \d+ s$/);
      // Messages are handled in order: once tools/list answers, the server has seen the cancellation.
      await conn.client.listTools();
      const after = progressLines().length;
      await conn.client.listTools();
      expect(progressLines().length).toBe(after);
    } finally {
      gl.api.resetFaults();
    }
  });

  it('sends nothing to a call without a progressToken, and the digest is whole', async () => {
    const before = progressLines().length;
    const r = await callChecked(conn, 'get_ci_failures', args);
    expect(r.isError).toBeFalsy();
    expect(JSON.stringify(r.structuredContent)).toContain('Error: lint');
    expect(progressLines().length).toBe(before);
  });
});

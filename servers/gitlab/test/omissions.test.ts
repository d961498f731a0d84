/**
 * Issue 28 item 3: diffs GitLab left out (`too_large`, `collapsed`: empty `diff`) say so and how
 * to read the file, and job logs come without terminal control sequences (whole ANSI sequences,
 * GitLab section markers, remnants of sequences whose ESC is gone, overwritten progress lines).
 */
import { callChecked } from '@refmcp/test-harness';
import type { FakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let gl: FakeGitLab;
let conn: Awaited<ReturnType<typeof startServer>>;
let mrIid: number;
let head: string;
let jobId: number;

const E = '\u001b';
const lines = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${tag} line ${i} ${'x'.repeat(40)}`).join('\n');

beforeAll(async () => {
  const scene = await startScene();
  gl = scene.gl;
  const s = gl.state;
  const proj = scene.scene.proj;
  const dev = s.userId('dev');
  s.commit(
    proj,
    'omit',
    {
      'gen/medium.txt': `${lines(600, 'medium')}\n`, // ~35 KB patch: collapsed (≥ 10% of 200 KB)
      'gen/huge.txt': `${lines(6000, 'huge')}\n`, // ~350 KB patch: too_large
      'src/small.ts': 'export const small = 1;\n',
    },
    'Generated files',
    dev,
    'main',
  );
  const mr = s.addMergeRequest(proj, { title: 'Generated', author: 'dev', source: 'omit' });
  mrIid = mr.iid;
  head = proj.repo.resolve('omit')?.id ?? '';
  const pipeline = s.addPipeline(proj, {
    user: 'dev',
    jobs: [
      {
        name: 'colours',
        status: 'failed',
        log: [
          `section_start:1700000000:prepare_script[collapsed=true]\r${E}[0K${E}[0K${E}[36;1mPreparing environment${E}[0;m`,
          `Running on runner-1${E}[0K`,
          `section_end:1700000001:prepare_script\r${E}[0K`,
          `section_start:1700000002:step_script\r${E}[0K${E}[0K${E}[36;1mExecuting "step_script" stage${E}[0;m`,
          `[32;1m$ npm test[0;m`, // remnants: ESC already gone upstream
          `Downloading 10%\rDownloading 55%\rDownloading 100%`,
          `${E}]8;;https://example.test/docs${E}\\docs link${E}]8;;${E}\\ and ${E}[1;31mError: expected 42${E}[0m`,
          `const a = matrix[1m];`,
          `section_end:1700000003:step_script\r${E}[0K`,
          `${E}[31;1mERROR: Job failed: exit code 1${E}[0;m`,
        ].join('\n'),
      },
    ],
  });
  jobId = pipeline.jobs[0]?.id ?? 0;
  conn = await startServer(gl, ['--toolsets', 'all']);
});
afterAll(async () => {
  await conn?.close();
  await gl?.close();
});

type Files = { files: { path: string; status: string; diff?: string; omitted?: string }[] };

describe('GitLab diffs left out', () => {
  it('too_large and collapsed files say the diff was omitted and how to read the file', async () => {
    const r = await callChecked(conn, 'get_merge_request_diffs', {
      project_id: 'grp/proj',
      merge_request_iid: mrIid,
    });
    expect(r.isError).toBeFalsy();
    const files = (r.structuredContent as Files).files;
    const byPath = new Map(files.map((f) => [f.path, f]));
    expect(byPath.get('gen/huge.txt')?.omitted).toBe('too_large');
    expect(byPath.get('gen/medium.txt')?.omitted).toBe('collapsed');
    expect(byPath.get('src/small.ts')?.omitted).toBeUndefined();
    expect(byPath.get('src/small.ts')?.diff).toContain('+export const small = 1;');
    for (const path of ['gen/huge.txt', 'gen/medium.txt']) {
      const diff = byPath.get(path)?.diff ?? '';
      expect(diff, path).toMatch(/omitted|collapsed/);
      expect(diff, path).toContain(`get_file_contents (file_path: ${path}, ref: ${head})`);
    }
    expect(r.text).toContain('GitLab omitted this diff');
    expect(r.text).toContain('GitLab collapsed this diff');

    // The way it names reads the file.
    const file = await callChecked(conn, 'get_file_contents', {
      project_id: 'grp/proj',
      file_path: 'gen/medium.txt',
      ref: head,
    });
    expect(file.isError).toBeFalsy();
    expect(file.text).toContain('medium line 599');
  });

  it('a commit whose file GitLab left out names the commit and its parent', async () => {
    const r = await callChecked(conn, 'get_commit', { project_id: 'grp/proj', sha: head });
    const files = (r.structuredContent as Files).files;
    const huge = files.find((f) => f.path === 'gen/huge.txt');
    expect(huge?.omitted).toBe('too_large');
    expect(huge?.diff).toContain(`ref: ${head}`);
  });
});

describe('job logs without terminal control sequences', () => {
  it('get_job_log removes whole sequences, section markers and remnants, keeping the text', async () => {
    const r = await callChecked(conn, 'get_job_log', { project_id: 'grp/proj', job_id: jobId });
    expect(r.isError).toBeFalsy();
    const log = (r.structuredContent as { log: string }).log;
    for (const text of [log, r.text]) {
      expect(text).not.toMatch(/\[\d+(;\d*)*[mK](?!\])/);
      expect(text).not.toContain('section_start');
      expect(text).not.toContain('section_end');
      expect(text).not.toContain('\r');
      expect(text).not.toContain(']8;;');
    }
    expect(log).toContain('Preparing environment\nRunning on runner-1\n');
    expect(log).toContain('Executing "step_script" stage\n$ npm test\n');
    expect(log).toContain('\nDownloading 100%\n');
    expect(log).not.toContain('Downloading 55%');
    expect(log).toContain('docs link and Error: expected 42');
    expect(log).toContain('docs link and Error: expected 42\nconst a = matrix[1m];\nERROR: Job failed');
    expect(log).toContain('ERROR: Job failed: exit code 1');
  });
});

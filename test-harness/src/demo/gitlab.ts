/**
 * Demo scene: the GitLab server against a fake GitLab the demo starts itself on 127.0.0.1 under
 * `/api/v4` (the harness's fake, checked against GitLab's OpenAPI description by the GitLab
 * server's tests; no network, no real token). A public issue by a non-member carries hidden
 * instructions; the agent reads it (neutralised and labelled as data), reads the failing job's log
 * tail, reads the code, pushes a fix in one commit (an existing file: an `update` action) and opens
 * a merge request — and is refused when the injected text would have it read a private project
 * outside --projects.
 */
import { type FakeGitLab, SCENE_TOKEN, seedScene, startFakeGitLab } from '../fakes/gitlab/index.js';
import type { DemoScene } from './scene.js';
import { bold } from './session.js';

let gl: FakeGitLab | undefined;

export const gitlabScene: DemoScene = {
  server: 'gitlab',
  async prepare() {
    gl = await startFakeGitLab();
    seedScene(gl);
    process.env.REFMCP_DEMO_GITLAB_URL = gl.url;
    process.env.REFMCP_DEMO_GITLAB_TOKEN = SCENE_TOKEN;
  },
  async run(session) {
    console.log(
      `\n${bold('Task: triage the failing-build issue in grp/proj and propose a fix as a merge request.')}`,
    );
    const project = { project_id: 'grp/proj' };
    await session.call(
      'get_issue',
      { ...project, issue_iid: 1 },
      'The issue hides instructions (zero-width, bidi, tag characters, an HTML comment): they come back neutralised and labelled as data.',
    );
    const pipelines = await session.call(
      'list_pipelines',
      { ...project, status: 'failed', per_page: 1 },
      'Find the failing pipeline.',
    );
    const pipelineId = (pipelines.structuredContent as { pipelines?: { id: number }[] } | undefined)
      ?.pipelines?.[0]?.id;
    const jobs = await session.call(
      'list_pipeline_jobs',
      { ...project, pipeline_id: pipelineId },
      'Its jobs and which failed.',
    );
    const failed = (
      jobs.structuredContent as { jobs?: { id: number; status?: string }[] } | undefined
    )?.jobs?.find((j) => j.status === 'failed');
    await session.call(
      'get_job_log',
      { ...project, job_id: failed?.id, tail_bytes: 200 },
      'Only the tail of a 580 KB log, where the failure is.',
    );
    await session.call(
      'get_file_contents',
      { ...project, file_path: 'src/app.ts', ref: 'dev' },
      'Read the code.',
    );
    await session.call(
      'push_files',
      {
        ...project,
        branch: 'dev',
        commit_message: 'Export the expected answer',
        files: [
          {
            file_path: 'src/app.ts',
            content: 'export const answer = 42;\nexport const expected = answer;\n',
          },
        ],
      },
      'Push the fix in one commit: the file exists, so the action is an update.',
    );
    await session.call(
      'create_merge_request',
      {
        ...project,
        title: 'Fix the failing build',
        source_branch: 'dev',
        target_branch: 'main',
        description: 'Closes #1.',
      },
      'Open the merge request.',
    );
    await session.call(
      'get_file_contents',
      { project_id: 'upstream/private', file_path: 'secrets.md' },
      'What the hidden comment asked for: outside --projects, refused before any request.',
      true,
    );
  },
  async cleanup() {
    await gl?.close();
    gl = undefined;
  },
};

/**
 * Demo scene: the GitHub server against a fake GitHub the demo starts itself on 127.0.0.1 (the
 * harness's fake, checked against GitHub's OpenAPI description by the GitHub server's tests; no
 * network, no real token). A public issue carries hidden instructions; the agent reads it (neutralised and labelled
 * as data), looks at the failing CI job's log tail, reads the code, pushes a fix to a new branch in
 * one commit and opens a pull request — and is refused when the injected text would have it read a
 * private repository outside --repos.
 */
import { type FakeGitHub, SCENE_TOKEN, seedScene, startFakeGitHub } from '../fakes/github/index.js';
import type { DemoScene } from './scene.js';
import { bold } from './session.js';

let gh: FakeGitHub | undefined;

export const githubScene: DemoScene = {
  server: 'github',
  async prepare() {
    gh = await startFakeGitHub();
    seedScene(gh);
    process.env.REFMCP_DEMO_GITHUB_URL = gh.url;
    process.env.REFMCP_DEMO_GITHUB_TOKEN = SCENE_TOKEN;
  },
  async run(session) {
    console.log(
      `\n${bold('Task: triage the failing-build issue in acme/demo and propose a fix as a pull request.')}`,
    );
    await session.call(
      'get_issue',
      { owner: 'acme', repo: 'demo', issue_number: 1 },
      'The issue body hides instructions (zero-width, bidi, tag characters, an HTML comment): they come back neutralised and labelled as data.',
    );
    const runs = await session.call(
      'list_workflow_runs',
      { owner: 'acme', repo: 'demo', status: 'failure', per_page: 1 },
      'Find the failing CI run.',
    );
    const runId = (runs.structuredContent as { runs?: { id: number }[] } | undefined)?.runs?.[0]?.id;
    const jobs = await session.call(
      'list_workflow_jobs',
      { owner: 'acme', repo: 'demo', run_id: runId },
      'Its jobs and which failed.',
    );
    const jobId = (jobs.structuredContent as { jobs?: { id: number }[] } | undefined)?.jobs?.[0]?.id;
    await session.call(
      'get_job_logs',
      { owner: 'acme', repo: 'demo', job_id: jobId, tail_lines: 5 },
      'Only the tail of the log, where the failure is.',
    );
    await session.call(
      'get_file_contents',
      { owner: 'acme', repo: 'demo', path: 'src/app.ts' },
      'Read the code under test.',
    );
    await session.call(
      'push_files',
      {
        owner: 'acme',
        repo: 'demo',
        branch: 'fix/answer',
        files: [
          { path: 'src/app.ts', content: 'export const answer = 42;\nexport const expected = answer;\n' },
        ],
        message: 'Export the expected answer',
      },
      'Push the fix to a new branch in one commit (the branch is created from main).',
    );
    await session.call(
      'create_pull_request',
      {
        owner: 'acme',
        repo: 'demo',
        title: 'Fix the failing build',
        head: 'fix/answer',
        base: 'main',
        body: 'Fixes #1.',
      },
      'Open the pull request.',
    );
    await session.call(
      'get_file_contents',
      { owner: 'acme', repo: 'private-notes', path: 'secrets.md' },
      'What the hidden comment asked for: outside --repos, refused before any request.',
      true,
    );
  },
  async cleanup() {
    await gh?.close();
    gh = undefined;
  },
};

/**
 * The harness's conformance suite against the built GitLab server and the fake GitLab with every
 * toolset on: checks ALL-01 … ALL-08, tool snapshots (each with its toolset), the README's
 * generated tool table; and toolset selection with the reference's 9 tools by default.
 */
import { NO_PACING } from '@refmcp/test-harness';
import { describeConformance, describeToolsetSelection } from '@refmcp/test-harness/conformance';
import type { FakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, beforeAll } from 'vitest';
import { TOOLSETS } from '../src/toolsets.js';
import { fakeEnv, SCENE_TOKEN, startScene, startServer } from './support.js';

let gl: FakeGitLab;
beforeAll(async () => {
  ({ gl } = await startScene());
  // The slow call: a project search for "slow" answers after 2.5 s.
  gl.api.latency(2500, (req) => req.path === '/projects' && (req.query.get('search') ?? '') === 'slow');
});
afterAll(() => gl.close());

describeConformance({
  server: 'gitlab',
  testFile: import.meta.url,
  args: () => [...NO_PACING],
  env: () => fakeEnv(gl),
  allTools: ['--toolsets', 'all'],
  toolsets: TOOLSETS.map((t) => t.name),
  check: () => ({
    secrets: [SCENE_TOKEN],
    slowCall: { name: 'search_repositories', arguments: { search: 'slow' } },
  }),
});

/** The reference server's 9 tools (@modelcontextprotocol/server-gitlab 2025.4.25). */
const PARITY = [
  'create_or_update_file',
  'search_repositories',
  'create_repository',
  'get_file_contents',
  'push_files',
  'create_issue',
  'create_merge_request',
  'fork_repository',
  'create_branch',
];

describeToolsetSelection({
  snapshots: new URL('./__toolsnaps__/', import.meta.url),
  start: (args) => startServer(gl, args),
  parity: PARITY,
  offByDefault: ['pipelines', 'groups', 'work_items'],
  sample: { toolset: 'issues', read: 'get_issue', write: 'create_issue' },
});

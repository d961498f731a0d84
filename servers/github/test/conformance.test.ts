/**
 * The harness's conformance suite against the built GitHub server and the fake GitHub with every
 * toolset on: checks ALL-01 … ALL-08, tool snapshots (each with its toolset), the README's
 * generated tool table; and toolset selection, checked against the toolsets in the snapshots.
 */

import { NO_PACING } from '@refmcp/test-harness';
import { describeConformance, describeToolsetSelection } from '@refmcp/test-harness/conformance';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll } from 'vitest';
import { TOOLSETS } from '../src/toolsets.js';
import { fakeEnv, SCENE_TOKEN, startScene, startServer } from './support.js';

let gh: FakeGitHub;
beforeAll(async () => {
  ({ gh } = await startScene());
  // The slow call: user search for "slow" answers after 2.5 s.
  gh.api.latency(2500, (req) => req.path === '/search/users' && (req.query.get('q') ?? '').includes('slow'));
});
afterAll(() => gh.close());

describeConformance({
  server: 'github',
  testFile: import.meta.url,
  args: () => [...NO_PACING],
  env: () => fakeEnv(gh),
  allTools: ['--toolsets', 'all'],
  toolsets: TOOLSETS.map((t) => t.name),
  check: () => ({ secrets: [SCENE_TOKEN], slowCall: { name: 'search_users', arguments: { q: 'slow' } } }),
});

/** The reference server's 26 tools (@modelcontextprotocol/server-github 2025.4.8). */
const PARITY = [
  'create_or_update_file',
  'search_repositories',
  'create_repository',
  'get_file_contents',
  'push_files',
  'create_issue',
  'create_pull_request',
  'fork_repository',
  'create_branch',
  'list_commits',
  'list_issues',
  'update_issue',
  'add_issue_comment',
  'search_code',
  'search_issues',
  'search_users',
  'get_issue',
  'get_pull_request',
  'list_pull_requests',
  'create_pull_request_review',
  'merge_pull_request',
  'get_pull_request_files',
  'get_pull_request_status',
  'update_pull_request_branch',
  'get_pull_request_comments',
  'get_pull_request_reviews',
];

describeToolsetSelection({
  snapshots: new URL('./__toolsnaps__/', import.meta.url),
  start: (args) => startServer(gh, args),
  parity: PARITY,
  offByDefault: ['actions'],
  sample: { toolset: 'issues', read: 'get_issue', write: 'create_issue' },
});

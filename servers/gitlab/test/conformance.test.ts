/**
 * The harness's conformance suite against the built GitLab server and the fake GitLab with every
 * toolset on: checks ALL-01 … ALL-08, tool snapshots (each with its toolset), the README's
 * generated tool table; and toolset selection with the reference's 9 tools by default.
 */
import { readToolSnapshots, type ToolSnapshot } from '@refmcp/test-harness';
import {
  describeConformance,
  expectToolSelection,
  type ToolSelectionCase,
} from '@refmcp/test-harness/conformance';
import type { FakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLSETS } from '../src/toolsets.js';
import { fakeEnv, NO_PACING, SCENE_TOKEN, startScene, startServer } from './support.js';

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
  args: () => NO_PACING,
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

let EXPECTED: Map<string, ToolSnapshot>;
beforeAll(async () => {
  EXPECTED = await readToolSnapshots(new URL('./__toolsnaps__/', import.meta.url));
});
const named = (keep: (name: string, snap: ToolSnapshot) => boolean) =>
  [...EXPECTED].filter(([name, snap]) => keep(name, snap)).map(([name]) => name);

describe('toolsets', () => {
  it('default toolsets serve the 9 reference tools plus the beyond-parity ones, pipelines off', async () => {
    const conn = await startServer(gl);
    try {
      const names = (await conn.tools()).map((t) => t.name).sort();
      expect(names).toEqual(named((_, s) => s.toolset !== 'pipelines').sort());
      for (const p of PARITY) expect(names).toContain(p);
    } finally {
      await conn.close();
    }
  });

  it('--toolsets, --tools and --exclude-tools select; --read-only beats them all', async () => {
    const cases: ToolSelectionCase[] = [
      [['--toolsets', 'pipelines'], named((_, s) => s.toolset === 'pipelines')],
      [
        ['--tools', 'get_issue,create_issue'],
        ['create_issue', 'get_issue'],
      ],
      [['--tools', 'get_issue,create_issue', '--read-only'], ['get_issue']],
      [
        ['--toolsets', 'issues', '--exclude-tools', 'create_issue'],
        named((n, s) => s.toolset === 'issues' && n !== 'create_issue'),
      ],
      [['--toolsets', 'all', '--read-only'], named((_, s) => s.tool.annotations?.readOnlyHint === true)],
    ];
    await expectToolSelection((args) => startServer(gl, args), cases);
  });
});

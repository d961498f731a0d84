/**
 * The harness's conformance checks (cases ALL-01 … ALL-08) against the built GitHub server and the
 * fake GitHub, every tool's annotations, toolset selection, and the README's generated tool table.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkServer, renderToolsTable, serverBin, withToolsTable } from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_PACING, SCENE_TOKEN, startScene, startServer } from './support.js';

let gh: FakeGitHub;
let dir: string;
beforeAll(async () => {
  ({ gh } = await startScene());
  dir = await mkdtemp(join(tmpdir(), 'refmcp-gh-'));
  // The slow call: user search for "slow" answers after 2.5 s.
  gh.api.latency(2500, (req) => req.path === '/search/users' && (req.query.get('q') ?? '').includes('slow'));
});
afterAll(async () => {
  await gh.close();
  await rm(dir, { recursive: true, force: true });
});

describe('conformance (ALL-01 … ALL-08)', () => {
  it('passes every harness check with every toolset on', async () => {
    const bin = serverBin('github');
    const auditLog = join(dir, 'audit.log');
    const report = await checkServer(
      {
        command: bin.command,
        args: [...bin.args, '--toolsets', 'all', ...NO_PACING, '--audit-log', auditLog],
        env: { GITHUB_API_URL: gh.url, GITHUB_PERSONAL_ACCESS_TOKEN: SCENE_TOKEN },
      },
      { secrets: [SCENE_TOKEN], auditLog, slowCall: { name: 'search_users', arguments: { q: 'slow' } } },
    );
    const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.id}: ${c.details.join('; ')}`);
    expect(failed).toEqual([]);
    expect(report.checks.filter((c) => c.skipped).map((c) => c.id)).toEqual([]);
  }, 240_000);
});

/** Every tool's toolset and hints [readOnly, destructive, idempotent]: a changed hint must be deliberate. */
export const EXPECTED: Record<
  string,
  [toolset: string, readOnly: boolean, destructive: boolean, idempotent: boolean]
> = {
  get_me: ['context', true, false, true],
  get_file_contents: ['repos', true, false, true],
  list_commits: ['repos', true, false, true],
  get_commit: ['repos', true, false, true],
  list_branches: ['repos', true, false, true],
  get_repository_tree: ['repos', true, false, true],
  list_tags: ['repos', true, false, true],
  list_releases: ['repos', true, false, true],
  get_latest_release: ['repos', true, false, true],
  search_repositories: ['repos', true, false, true],
  search_code: ['repos', true, false, true],
  create_or_update_file: ['repos', false, true, false],
  delete_file: ['repos', false, true, true],
  push_files: ['repos', false, false, false],
  create_branch: ['repos', false, false, false],
  create_repository: ['repos', false, false, false],
  fork_repository: ['repos', false, false, false],
  get_issue: ['issues', true, false, true],
  list_issues: ['issues', true, false, true],
  get_issue_comments: ['issues', true, false, true],
  search_issues: ['issues', true, false, true],
  create_issue: ['issues', false, false, false],
  update_issue: ['issues', false, true, false],
  add_issue_comment: ['issues', false, false, false],
  get_pull_request: ['pull_requests', true, false, true],
  list_pull_requests: ['pull_requests', true, false, true],
  get_pull_request_files: ['pull_requests', true, false, true],
  get_pull_request_diff: ['pull_requests', true, false, true],
  get_pull_request_status: ['pull_requests', true, false, true],
  get_pull_request_comments: ['pull_requests', true, false, true],
  get_pull_request_reviews: ['pull_requests', true, false, true],
  create_pull_request: ['pull_requests', false, false, false],
  update_pull_request: ['pull_requests', false, true, false],
  merge_pull_request: ['pull_requests', false, true, true],
  create_pull_request_review: ['pull_requests', false, false, false],
  update_pull_request_branch: ['pull_requests', false, true, false],
  search_users: ['users', true, false, true],
  list_workflow_runs: ['actions', true, false, true],
  get_workflow_run: ['actions', true, false, true],
  list_workflow_jobs: ['actions', true, false, true],
  get_job_logs: ['actions', true, false, true],
};

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

describe('tools and toolsets', () => {
  it('default toolsets serve the 26 reference tools plus the beyond-parity ones, Actions off', async () => {
    const conn = await startServer(gh);
    try {
      const names = (await conn.tools()).map((t) => t.name).sort();
      expect(names).toEqual(
        Object.entries(EXPECTED)
          .filter(([, [set]]) => set !== 'actions')
          .map(([n]) => n)
          .sort(),
      );
      for (const p of PARITY) expect(names).toContain(p);
      expect(PARITY).toHaveLength(26);
    } finally {
      await conn.close();
    }
  });

  it('every tool states its four hints as intended (openWorld: GitHub is an open world)', async () => {
    const conn = await startServer(gh, ['--toolsets', 'all']);
    try {
      const tools = await conn.tools();
      expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(EXPECTED).sort());
      for (const tool of tools) {
        const [, readOnlyHint, destructiveHint, idempotentHint] = EXPECTED[tool.name] ?? [];
        expect({ tool: tool.name, ...tool.annotations }).toMatchObject({
          tool: tool.name,
          readOnlyHint,
          destructiveHint,
          idempotentHint,
          openWorldHint: true,
        });
      }
    } finally {
      await conn.close();
    }
  });

  it('--toolsets, --tools and --exclude-tools select; --read-only beats them all', async () => {
    const cases: [string[], string[]][] = [
      [['--toolsets', 'actions'], Object.keys(EXPECTED).filter((n) => EXPECTED[n]?.[0] === 'actions')],
      [
        ['--tools', 'get_issue,create_issue'],
        ['create_issue', 'get_issue'],
      ],
      [['--tools', 'get_issue,create_issue', '--read-only'], ['get_issue']],
      [
        ['--toolsets', 'issues', '--exclude-tools', 'create_issue'],
        Object.keys(EXPECTED).filter((n) => EXPECTED[n]?.[0] === 'issues' && n !== 'create_issue'),
      ],
      [['--toolsets', 'all', '--read-only'], Object.keys(EXPECTED).filter((n) => EXPECTED[n]?.[1])],
    ];
    for (const [args, expected] of cases) {
      const conn = await startServer(gh, args);
      try {
        expect((await conn.tools()).map((t) => t.name).sort(), args.join(' ')).toEqual([...expected].sort());
      } finally {
        await conn.close();
      }
    }
  });

  it('README tool table is generated from the definitions and current (UPDATE_README=1 rewrites it)', async () => {
    const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));
    const conn = await startServer(gh, ['--toolsets', 'all']);
    try {
      const tools = await conn.tools();
      const readme = await readFile(readmePath, 'utf8');
      const sets = ['context', 'repos', 'issues', 'pull_requests', 'users', 'actions'];
      const table = sets
        .map(
          (s) =>
            `**${s}**${s === 'actions' ? ' (off by default)' : ''}\n\n${renderToolsTable(tools.filter((t) => EXPECTED[t.name]?.[0] === s))}`,
        )
        .join('\n\n');
      const current = withToolsTable(readme, table);
      if (process.env.UPDATE_README === '1') await writeFile(readmePath, current);
      expect(
        readme,
        'README tool table is stale: run UPDATE_README=1 pnpm --filter @refmcp/server-github test',
      ).toBe(current);
    } finally {
      await conn.close();
    }
  });
});

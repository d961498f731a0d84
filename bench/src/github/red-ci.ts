/**
 * G4, "why is CI red" (issue 29): on a seeded red pull request (acme/red) (three failed Actions jobs with
 * 1,500-line logs, a failed third-party check), the bytes a model reads and the calls it makes.
 * Ours: one get_ci_failures call (text). The official path: the official server's
 * get_pull_request_status (a real call; it has no Actions tools), then what GitHub's own server's
 * read path returns for the rest — the run list for the head sha, the run's jobs and each failed
 * job's last 500 log lines (its get_job_logs default `tail_lines`), as GitHub's JSON (pretty-printed,
 * as the official server prints it) and log text — one call each.
 */
import { type FakeGitHub, SCENE_TOKEN } from '@refmcp/test-harness/fakes/github';
import type { ApiSession } from '../api-servers.js';
import { outputSize } from '../api-servers.js';
import { type Row, row } from '../report.js';
import type { ServerUnderTest } from '../servers.js';
import { alternate, type Context, cellOf } from '../workloads/common.js';

export const RED_ARGS = { owner: 'acme', repo: 'red', pull_number: 0 };
const E = '\u001b';

/** Seeds acme/red with the red pull request; returns its number and head sha. */
export function seedRedRun(gh: FakeGitHub): { pull: number; head: string } {
  const s = gh.state;
  const repo = s.addRepo('acme', 'red', {
    files: { 'src/parser.ts': 'export const parse = () => null;\n' },
    collaborators: { octo: 'write' },
  });
  const pr = s.addPull(repo, {
    title: 'Parser: nested arrays',
    body: 'Fixes the crash.',
    user: 'octo',
    head: 'nested',
    files: { 'src/parser.ts': 'export const parse = () => [];\n' },
  });
  const stamp = (i: number) =>
    `2026-01-01T00:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.1234567Z`;
  const log = (name: string, error: string) =>
    [
      `${stamp(0)} ##[group]Run npm ci`,
      ...Array.from(
        { length: 1200 },
        (_, i) =>
          `${stamp(i)} ${E}[90mnpm http fetch GET 200 https://registry.npmjs.org/pkg-${i} 12ms${E}[0m`,
      ),
      `${stamp(1201)} ##[endgroup]`,
      `${stamp(1202)} ##[group]Run npm run ${name}`,
      ...Array.from(
        { length: 250 },
        (_, i) => `${stamp(1203 + i)} ${E}[32m✓${E}[0m ${name} case ${i} (3 ms)`,
      ),
      `${stamp(1460)} ${E}[31m${error}${E}[0m`,
      ...Array.from(
        { length: 30 },
        (_, i) => `${stamp(1461 + i)}     at frame${i} (src/parser.ts:${i + 10}:5)`,
      ),
      `${stamp(1499)} ##[error]Process completed with exit code 1.`,
    ].join('\n');
  s.addRun(repo, {
    name: 'CI',
    branch: 'nested',
    event: 'pull_request',
    conclusion: 'failure',
    jobs: [
      { name: 'lint', conclusion: 'success', log: 'ok\n' },
      ...(['unit', 'integration', 'e2e'] as const).map((name) => ({
        name,
        conclusion: 'failure' as const,
        steps: [
          { name: 'Run npm ci', conclusion: 'success' as const },
          { name: `Run npm run ${name}`, conclusion: 'failure' as const },
        ],
        log: log(name, `TypeError: cannot read properties of undefined (reading 'items') in ${name}`),
      })),
    ],
  });
  s.addCheckRun(repo, s.headSha(repo, pr), {
    name: 'coverage',
    conclusion: 'failure',
    title: 'Coverage 71% (< 80%)',
    summary: 'src/parser.ts lost 9 covered lines.',
  });
  return { pull: pr.number, head: s.headSha(repo, pr) };
}

/** The official path's bytes beyond its get_pull_request_status call, and its call count. */
async function officialRest(gh: FakeGitHub, headSha: string): Promise<{ bytes: number; calls: number }> {
  const get = async (path: string) =>
    fetch(`${gh.url}/repos/acme/red${path}`, { headers: { authorization: `Bearer ${SCENE_TOKEN}` } });
  const pretty = (v: unknown) => Buffer.byteLength(JSON.stringify(v, null, 2));
  const runs = (await (await get(`/actions/runs?head_sha=${headSha}`)).json()) as {
    workflow_runs: { id: number; head_sha: string }[];
  };
  let bytes = pretty(runs);
  let calls = 1;
  for (const run of runs.workflow_runs.filter((r) => r.head_sha === headSha)) {
    const jobs = (await (await get(`/actions/runs/${run.id}/jobs`)).json()) as {
      jobs: { id: number; conclusion: string }[];
    };
    bytes += pretty(jobs);
    calls++;
    for (const job of jobs.jobs.filter((j) => j.conclusion === 'failure')) {
      const text = await (await get(`/actions/jobs/${job.id}/logs`)).text();
      bytes += Buffer.byteLength(text.split('\n').slice(-500).join('\n'));
      calls++;
    }
  }
  return { bytes, calls };
}

/** G4 and G4c: bytes read and calls made, ours (one digest call) against the official path. */
export async function redCiRows(
  ctx: Context,
  gh: FakeGitHub,
  session: (server: ServerUnderTest, args: string[]) => Promise<ApiSession>,
  { pull, head }: { pull: number; head: string },
): Promise<{ rows: Row[]; notes: string[] }> {
  const args = { ...RED_ARGS, pull_number: pull };
  const runs = await alternate(ctx, 1, 'github red CI path', async (server) => {
    if (server.side === 'ours') {
      const s = await session(server, ['--toolsets', 'actions']);
      try {
        const r = await outputSize(s, 'get_ci_failures', args);
        return { bytes: r.bytes, calls: 1 };
      } finally {
        await s.close();
      }
    }
    const s = await session(server, []);
    try {
      const status = await outputSize(s, 'get_pull_request_status', args);
      const rest = await officialRest(gh, head);
      return { bytes: status.bytes + rest.bytes, calls: 1 + rest.calls };
    } finally {
      await s.close();
    }
  });
  const calls = (side: 'ours' | 'official') => runs[side].results[0]?.calls;
  return {
    rows: [
      row({
        id: 'G4',
        name: 'github why-is-CI-red: bytes a model reads, 3 failed jobs (digest vs official multi-call path)',
        unit: 'bytes',
        better: 'lower',
        ours: cellOf(runs.ours, (r) => r.bytes),
        official: cellOf(runs.official, (r) => r.bytes),
        goal: {
          ratioAtMost: 0.3,
          text: '≤ 0.3×, 1 call',
          alsoRequired: { text: 'one call', met: calls('ours') === 1 },
        },
      }),
    ],
    notes: [
      `github why-is-CI-red: calls ours ${calls('ours') ?? '—'}, official path ${calls('official') ?? '—'} (official server's get_pull_request_status, then the run list, the run's jobs and the last 500 lines of each failed job's log as GitHub's own server reads them: its reference server has no Actions tools)`,
    ],
  };
}

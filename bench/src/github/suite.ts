/**
 * The GitHub suite (`--only github`): our server and the official
 * @modelcontextprotocol/server-github 2025.4.8 against the same local fake GitHub (the harness's
 * fake, started here on 127.0.0.1; no network), alternated, one run:
 *   G1 cold start to tools/list answered — goal ≤ 0.6×
 *   G2 get_issue calls/s, pipelined (the official server reaches the fake through a fetch-redirect
 *      preload, see servers.ts) — no goal, reported
 *   G3 output size of list_issues for 30 issues: our text (what a model reads) against the official
 *      server's text (GitHub's JSON pretty-printed) — goal ≤ 0.3×, and a check that every number,
 *      title, state, author, label, URL and body of the raw API answer is still in ours;
 *   G3s the same for our structuredContent (a host shows the model one or the other; both are
 *      reported, and their sum in the notes).
 */
import { type FakeGitHub, SCENE_TOKEN, seedScene, startFakeGitHub } from '@refmcp/test-harness/fakes/github';
import { outputSizeRuns, startAndCallRows, textSizeRow } from '../api-rows.js';
import { startApiSession } from '../api-servers.js';
import { type Answer, row } from '../report.js';
import type { ServerUnderTest, Side } from '../servers.js';
import { type Context, cellOf, preview, type WorkloadResult } from '../workloads/common.js';
import { redCiRows, seedRedRun } from './red-ci.js';
import { locateGithubServers, redirectPreload } from './servers.js';

const ISSUE_ARGS = { owner: 'acme', repo: 'bench', issue_number: 7 };
const LIST_ARGS = { owner: 'acme', repo: 'bench', state: 'all', per_page: 30 };

/** 40 issues with realistic bodies, labels and comments in acme/bench. */
function seedBench(gh: FakeGitHub): void {
  seedScene(gh);
  const repo = gh.state.addRepo('acme', 'bench', {
    description: 'bench',
    files: { 'README.md': '# bench\n' },
    collaborators: { octo: 'write' },
  });
  for (let i = 1; i <= 40; i++) {
    gh.state.addIssue(repo, {
      title: `Crash when parsing config file #${i} with nested arrays`,
      body: `### Steps to reproduce\n1. Create \`config-${i}.yml\` with a nested array\n2. Run \`tool build --config config-${i}.yml\`\n\n### Expected\nThe build succeeds.\n\n### Actual\n\`TypeError: cannot read properties of undefined (reading 'items')\` at parser.ts:${100 + i}.\n`,
      user: i % 3 ? 'octo' : 'maintainer',
      labels: i % 2 ? ['bug', 'parser'] : ['bug'],
      comments: i % 4 ? [] : [{ user: 'maintainer', body: 'Confirmed.' }],
    });
  }
}

export async function runGithubSuite(base: Context): Promise<WorkloadResult> {
  const servers = locateGithubServers();
  const ctx: Context = { ...base, servers };
  const { sizes } = ctx;
  const timeoutMs = sizes.callTimeoutMs;
  for (const side of ['ours', 'official'] as const)
    ctx.log(
      `github ${side}: ${servers[side].label}${servers[side].missing ? ` — ${servers[side].missing}` : ''}`,
    );
  if (servers.ours.missing) throw new Error(`our github server is ${servers.ours.missing}`);
  const gh = await startFakeGitHub();
  try {
    seedBench(gh);
    const red = seedRedRun(gh);
    // The official server has no base-URL setting; the fake serves under /api/v3.
    const preload = redirectPreload(ctx.dataRoot, gh.url);
    const env = (side: Side) => ({
      GITHUB_PERSONAL_ACCESS_TOKEN: SCENE_TOKEN,
      ...(side === 'ours' ? { GITHUB_API_URL: gh.url } : {}),
    });
    const session = (server: ServerUnderTest, withPreload: boolean, args?: string[]) =>
      startApiSession(server, {
        env: env(server.side),
        timeoutMs,
        ...(args ? { args } : {}),
        ...(withPreload && server.side === 'official' ? { preload } : {}),
      });

    const basics = await startAndCallRows(ctx, {
      name: 'github',
      prefix: 'G',
      session,
      tool: 'get_issue',
      args: ISSUE_ARGS,
      coldGoal: { ratioAtMost: 0.6, text: '≤ 0.6×' },
      latencyNote: '; ours keeps at most 10 GitHub requests in flight (shared policy)',
    });

    const sizeRuns = await outputSizeRuns(ctx, 'github', session, 'list_issues', LIST_ARGS);
    const redCi = await redCiRows(ctx, gh, (server, args) => session(server, true, args), red);

    // The raw API answer, pretty-printed (what the reference returns), and what a model needs from it.
    const raw = (await (
      await fetch(`${gh.url}/repos/acme/bench/issues?state=all&per_page=30`, {
        headers: { authorization: `Bearer ${SCENE_TOKEN}` },
      })
    ).json()) as {
      number: number;
      title: string;
      state: string;
      user: { login: string };
      labels: { name: string }[];
      html_url: string;
      body: string;
    }[];
    const rawPretty = Buffer.byteLength(JSON.stringify(raw, null, 2), 'utf8');
    const ours = sizeRuns.ours.results[0];
    const dropped: string[] = [];
    if (ours) {
      const items = ((ours.structured as { issues?: Record<string, unknown>[] } | undefined)?.issues ??
        []) as {
        number: number;
        title: string;
        state: string;
        author: string;
        labels: string[];
        url: string;
        body: string;
      }[];
      for (const r of raw) {
        const o = items.find((i) => i.number === r.number);
        if (!o) dropped.push(`#${r.number} missing`);
        else if (
          o.title !== r.title ||
          o.state !== r.state ||
          o.author !== r.user.login ||
          o.url !== r.html_url ||
          o.body !== r.body ||
          o.labels.join() !== r.labels.map((l) => l.name).join()
        )
          dropped.push(`#${r.number} differs`);
      }
    }

    const answers: Answer[] = [
      {
        name: 'list_issues (30 issues), first 100 characters',
        call: `list_issues ${JSON.stringify(LIST_ARGS)}`,
        ours: preview(ours?.text ?? '', 100),
        official: preview(sizeRuns.official.results[0]?.text ?? sizeRuns.official.error ?? '', 100),
      },
    ];
    return {
      rows: [
        ...basics.rows,
        textSizeRow(
          'G3',
          'github list_issues text a model reads, 30 issues (vs official text)',
          sizeRuns,
          'every number, title, state, author, label, URL and body kept',
          ours ? dropped.length === 0 : undefined,
        ),
        row({
          id: 'G3s',
          name: 'github list_issues structuredContent, 30 issues (vs official text)',
          unit: 'bytes',
          better: 'lower',
          ours: cellOf(sizeRuns.ours, (r) => r.structuredBytes),
          official: cellOf(sizeRuns.official, (r) => r.bytes),
          goal: { ratioAtMost: 0.3, text: '≤ 0.3×' },
        }),
        ...redCi.rows,
      ],
      answers,
      notes: [
        ...basics.notes,
        ...redCi.notes,
        `github list_issues: raw API JSON pretty-printed is ${rawPretty} bytes; ours text/raw = ${ours ? (ours.bytes / rawPretty).toFixed(3) : '—'}, structured/raw = ${ours?.structuredBytes ? (ours.structuredBytes / rawPretty).toFixed(3) : '—'}, text+structured/raw = ${ours ? ((ours.bytes + (ours.structuredBytes ?? 0)) / rawPretty).toFixed(3) : '—'}; fields a model needs kept: ${ours ? (dropped.length ? `NO (${dropped.slice(0, 5).join(', ')})` : 'yes, all 30 issues') : '—'}`,
        'github: the official server reaches the fake through a preload that rewrites https://api.github.com in fetch (it has no base-URL setting); cold starts run without it',
      ],
    };
  } finally {
    await gh.close();
  }
}

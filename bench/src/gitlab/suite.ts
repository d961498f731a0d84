/**
 * The GitLab suite (`--only gitlab`): our server and the official
 * @modelcontextprotocol/server-gitlab 2025.4.25 against the same local fake GitLab (the harness's
 * fake on 127.0.0.1; no network; both take GITLAB_API_URL), alternated, one run:
 *   L1 cold start to tools/list answered — no goal, reported (issue 15's start goal is F1, the
 *      first `npx -y`, in the firststart workload)
 *   L2 get_file_contents calls/s, pipelined — no goal, reported
 *   L3 output size of list_issues for 30 issues: our text (what a model reads) against the raw API
 *      JSON pretty-printed (the reference has no issue list; pretty-printed API JSON is how it
 *      answers every tool) — goal ≤ 0.3×, and a check that every iid, title, state, author,
 *      assignee, label, milestone, URL and description of the raw answer is in our result;
 *   L3s the same for our structuredContent (a host shows the model one or the other).
 * Model bytes of tools/list are the context workload's (C1, C1s, C3); the first start is F1.
 */
import {
  DEVELOPER,
  type FakeGitLab,
  MAINTAINER,
  SCENE_TOKEN,
  seedScene,
  startFakeGitLab,
} from '@refmcp/test-harness/fakes/gitlab';
import { startAndCallRows } from '../api-rows.js';
import { jsonBytes, locateApiServers, type OutputSize, outputSize, startApiSession } from '../api-servers.js';
import { type Answer, row } from '../report.js';
import type { ServerUnderTest } from '../servers.js';
import { type Context, preview, type WorkloadResult } from '../workloads/common.js';

const PROJECT = 'acme/bench';
const FILE_ARGS = { project_id: PROJECT, file_path: 'src/parser.ts', ref: 'main' };
const LIST_ARGS = { project_id: PROJECT, state: 'all', per_page: 30 };

/** acme/bench: a source file and 40 issues with realistic descriptions, labels, assignees, milestones. */
function seedBench(gl: FakeGitLab): void {
  seedScene(gl);
  const s = gl.state;
  s.addGroup('acme', { members: { tester: MAINTAINER } });
  const lines = Array.from(
    { length: 120 },
    (_, i) => `export const rule${i} = (input: string) => input.trim().split(',')[${i % 7}];`,
  );
  const project = s.addProject('acme', 'bench', {
    description: 'bench',
    creator: 'tester',
    members: { maintainer: MAINTAINER, dev: DEVELOPER },
    files: { 'README.md': '# bench\n', 'src/parser.ts': `${lines.join('\n')}\n` },
  });
  for (let i = 1; i <= 40; i++) {
    s.addIssue(project, {
      title: `Crash when parsing config file #${i} with nested arrays`,
      description: `### Steps to reproduce\n1. Create \`config-${i}.yml\` with a nested array\n2. Run \`tool build --config config-${i}.yml\`\n\n### Expected\nThe build succeeds.\n\n### Actual\n\`TypeError: cannot read properties of undefined (reading 'items')\` at parser.ts:${100 + i}.\n`,
      author: i % 3 ? 'dev' : 'maintainer',
      labels: i % 2 ? ['bug', 'parser'] : ['bug'],
      assignees: i % 5 ? [] : ['maintainer'],
      ...(i % 4 ? {} : { state: 'closed' as const }),
    });
  }
}

/** The raw API issue fields a model needs. */
interface RawIssue {
  iid: number;
  title: string;
  state: string;
  description: string | null;
  author: { username: string };
  assignees?: { username: string }[];
  labels: string[];
  milestone: { title: string } | null;
  web_url: string;
}

/** What of `raw` is missing from or different in our structured issues (empty: nothing dropped). */
function droppedFields(raw: RawIssue[], structured: unknown): string[] {
  const ours = ((structured as { issues?: Record<string, unknown>[] } | undefined)?.issues ?? []) as {
    iid?: number;
    title?: string;
    state?: string;
    author?: string;
    assignees?: string[];
    labels?: string[];
    milestone?: string;
    webUrl?: string;
    description?: string;
  }[];
  const dropped: string[] = [];
  for (const r of raw) {
    const o = ours.find((i) => i.iid === r.iid);
    if (!o) {
      dropped.push(`#${r.iid} missing`);
      continue;
    }
    const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
    const differs = [
      same(o.title, r.title) ? '' : 'title',
      same(o.state, r.state) ? '' : 'state',
      same(o.author, r.author.username) ? '' : 'author',
      same(
        o.assignees ?? [],
        (r.assignees ?? []).map((a) => a.username),
      )
        ? ''
        : 'assignees',
      same(o.labels ?? [], r.labels) ? '' : 'labels',
      same(o.milestone, r.milestone?.title) ? '' : 'milestone',
      same(o.webUrl, r.web_url) ? '' : 'web_url',
      same(o.description, r.description || undefined) ? '' : 'description',
    ].filter(Boolean);
    if (differs.length) dropped.push(`#${r.iid} ${differs.join('/')}`);
  }
  return dropped;
}

export async function runGitlabSuite(base: Context): Promise<WorkloadResult> {
  const servers = locateApiServers('gitlab', '@modelcontextprotocol/server-gitlab');
  const ctx: Context = { ...base, servers };
  const { sizes } = ctx;
  const timeoutMs = sizes.callTimeoutMs;
  for (const side of ['ours', 'official'] as const)
    ctx.log(
      `gitlab ${side}: ${servers[side].label}${servers[side].missing ? ` — ${servers[side].missing}` : ''}`,
    );
  if (servers.ours.missing) throw new Error(`our gitlab server is ${servers.ours.missing}`);
  const gl = await startFakeGitLab();
  try {
    seedBench(gl);
    // Both read the token and GITLAB_API_URL (the fake serves under /api/v4); ours paces nothing
    // here (no writes, no searches).
    const session = (server: ServerUnderTest) =>
      startApiSession(server, {
        env: { GITLAB_PERSONAL_ACCESS_TOKEN: SCENE_TOKEN, GITLAB_API_URL: gl.url },
        timeoutMs,
      });

    const basics = await startAndCallRows(ctx, {
      name: 'gitlab',
      prefix: 'L',
      session,
      tool: 'get_file_contents',
      args: FILE_ARGS,
      latencyNote: '; ours keeps at most 10 GitLab requests in flight (shared policy)',
    });

    // Our list_issues; the reference has no such tool, so it is compared with the raw API answer.
    let ours: OutputSize | undefined;
    let oursError: string | undefined;
    try {
      ctx.log('gitlab list_issues output size: ours');
      const s = await session(servers.ours);
      try {
        ours = await outputSize(s, 'list_issues', LIST_ARGS);
      } finally {
        await s.close();
      }
    } catch (error) {
      oursError = error instanceof Error ? error.message : String(error);
    }
    const rawResponse = await fetch(`${gl.url}/projects/acme%2Fbench/issues?state=all&per_page=30`, {
      headers: { 'private-token': SCENE_TOKEN },
    });
    const raw = (await rawResponse.json()) as RawIssue[];
    const rawPretty = Buffer.byteLength(JSON.stringify(raw, null, 2), 'utf8');
    const rawCompact = jsonBytes(raw);
    const dropped = ours ? droppedFields(raw, ours.structured) : [];
    const oursCell = (pick: (o: NonNullable<typeof ours>) => number | undefined) =>
      ours ? { value: pick(ours) } : { error: oursError ?? 'no result' };

    const answers: Answer[] = [
      {
        name: 'gitlab list_issues (30 issues), first 100 characters',
        call: `list_issues ${JSON.stringify(LIST_ARGS)}`,
        ours: preview(ours?.text ?? oursError ?? '', 100),
        official: `(no such tool; raw API JSON: ${preview(JSON.stringify(raw, null, 2), 80)})`,
      },
    ];
    const ratio = (n: number | undefined, d: number) => (n === undefined ? '—' : (n / d).toFixed(3));
    return {
      rows: [
        ...basics.rows,
        row({
          id: 'L3',
          name: 'gitlab list_issues text a model reads, 30 issues (vs raw API JSON, pretty)',
          unit: 'bytes',
          better: 'lower',
          ours: oursCell((o) => o.bytes),
          official: { value: rawPretty },
          goal: {
            ratioAtMost: 0.3,
            text: '≤ 0.3×, nothing needed dropped',
            alsoRequired: {
              text: 'every iid, title, state, author, assignee, label, milestone, URL and description kept',
              met: ours ? dropped.length === 0 : undefined,
            },
          },
        }),
        row({
          id: 'L3s',
          name: 'gitlab list_issues structuredContent, 30 issues (vs raw API JSON, pretty)',
          unit: 'bytes',
          better: 'lower',
          ours: oursCell((o) => o.structuredBytes),
          official: { value: rawPretty },
          goal: { ratioAtMost: 0.3, text: '≤ 0.3×' },
        }),
      ],
      answers,
      notes: [
        ...basics.notes,
        `gitlab list_issues: raw API JSON is ${rawPretty} bytes pretty-printed, ${rawCompact} compact; ours text/raw = ${ratio(ours?.bytes, rawPretty)} (compact ${ratio(ours?.bytes, rawCompact)}), structured/raw = ${ratio(ours?.structuredBytes, rawPretty)} (compact ${ratio(ours?.structuredBytes, rawCompact)}), text+structured/raw = ${ratio(ours ? ours.bytes + (ours.structuredBytes ?? 0) : undefined, rawPretty)}; fields a model needs kept in structuredContent: ${ours ? (dropped.length ? `NO (${dropped.slice(0, 5).join(', ')})` : 'yes, all 30 issues') : '—'}; the text has one line per issue (iid, state, title, author, assignees, labels), descriptions and URLs in structuredContent and get_issue`,
        'gitlab: the reference has no list_issues tool; L3 compares with the raw API answer pretty-printed, the form in which the reference returns every answer',
      ],
    };
  } finally {
    await gl.close();
  }
}

/**
 * Metric C (DESIGN.md §2, "Context is the model's budget"): what each server's `tools/list` costs
 * a model on every turn. Each server is started once with default flags, its `tools/list` (all
 * pages) read raw, and three figures kept per server: the tool count, the "model bytes" (JSON of
 * name + description + inputSchema of every tool — what hosts send the model) and the bytes of the
 * whole `tools/list` result (output schemas, annotations and titles included). Ours beside the
 * official server where one exists on npm (a bench dependency); GitHub and GitLab also per tool.
 * The GitLab reference's tools/list is read raw (unvalidated), so that its figure is what it sent
 * even where the 2.x client would refuse it: its schemas come from zod-to-json-schema over a zod it
 * does not declare, and a zod 4 in reach gives schemas without `type`, which the client rejects.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client, type Tool } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { withTimeout } from '../api-servers.js';
import { errorText } from '../measure.js';
import { type Cell, type Goal, type Row, row } from '../report.js';
import { BENCH_DIR, type Side } from '../servers.js';
import { StdioTransport } from '../transport.js';
import type { Context, WorkloadResult } from './common.js';

/** How to start one server for `tools/list`: its entry point (node), arguments and extra env. */
interface Launch {
  bin: string;
  args: string[];
  env?: Record<string, string>;
  /** Read tools/list raw (unvalidated JSON-RPC) instead of through the SDK client. */
  raw?: boolean;
}

/** One server pair: ours (built in servers/<dir>) and the official package, if there is one. */
interface Pair {
  name: string;
  ours: (tmp: string) => Launch;
  official?: { pkg: string; entry: string; launch: (bin: string, tmp: string) => Launch };
  /** Goal on model bytes, ours ÷ official. */
  goal: number;
  /**
   * Which row carries the goal: `same` (C1s, the tools both servers list: issue 14's "at most the
   * official server's for the same tools", for servers with tools the official one lacks) or
   * `total` (C1, the whole list: the browser's "at most 0.8× @playwright/mcp's").
   */
  goalOn: 'total' | 'same';
  /** Row C3, model bytes per tool (all listed tools ÷ their count), with this goal on ours. */
  perTool?: (oursBytesPerTool: number | undefined) => Goal;
  /** A note printed with the figures. */
  note?: string;
}

const FAKE_TOKEN = 'ghp_benchContextNotARealToken000000000000';
const FAKE_GITLAB_TOKEN = 'glpat-benchContextNotARealToken00';
const PG_URL = 'postgresql://bench@127.0.0.1:1/bench';
const SLACK_TOKEN = 'xoxb-benchContextNotARealToken';

/** GitHub's goal in bytes per tool (issue 14). */
const GITHUB_BYTES_PER_TOOL = 0.6 * 1024;

const PAIRS: Pair[] = [
  {
    name: 'filesystem',
    ours: (tmp) => ({ bin: ourBin('filesystem'), args: [tmp] }),
    official: {
      pkg: '@modelcontextprotocol/server-filesystem',
      entry: 'dist/index.js',
      launch: (bin, tmp) => ({ bin, args: [tmp] }),
    },
    goal: 1,
    goalOn: 'same',
  },
  {
    name: 'github',
    ours: () => ({ bin: ourBin('github'), args: [], env: { GITHUB_PERSONAL_ACCESS_TOKEN: FAKE_TOKEN } }),
    official: {
      pkg: '@modelcontextprotocol/server-github',
      entry: 'dist/index.js',
      launch: (bin) => ({ bin, args: [], env: { GITHUB_PERSONAL_ACCESS_TOKEN: FAKE_TOKEN } }),
    },
    goal: 1,
    goalOn: 'same',
    perTool: (ours) => ({
      text: '≤ 0.6 KB a tool',
      alsoRequired: {
        text: '≤ 0.6 KB a tool',
        met: ours === undefined ? undefined : ours <= GITHUB_BYTES_PER_TOOL,
      },
    }),
  },
  {
    // Issue 15: model bytes per tool at most the reference's (C3), and on the 9 tools both list (C1s).
    name: 'gitlab',
    ours: () => ({
      bin: ourBin('gitlab'),
      args: [],
      env: { GITLAB_PERSONAL_ACCESS_TOKEN: FAKE_GITLAB_TOKEN },
    }),
    official: {
      pkg: '@modelcontextprotocol/server-gitlab',
      entry: 'dist/index.js',
      launch: (bin) => ({
        bin,
        args: [],
        env: { GITLAB_PERSONAL_ACCESS_TOKEN: FAKE_GITLAB_TOKEN },
        raw: true,
      }),
    },
    goal: 1,
    goalOn: 'same',
    perTool: () => ({ ratioAtMost: 1, text: '≤ 1.0×' }),
    note: 'context gitlab: the reference is measured with the zod 3 it was published with (pnpm-workspace.yaml packageExtensions); as npx installs it today it imports zod 4 and lists its 9 tools with empty input schemas',
  },
  {
    name: 'slack',
    // Default flags: posting is off, so ours lists 5 of the reference's 8 tools (C1s compares those).
    ours: () => ({ bin: ourBin('slack'), args: [], env: { SLACK_BOT_TOKEN: SLACK_TOKEN } }),
    official: {
      pkg: '@modelcontextprotocol/server-slack',
      entry: 'dist/index.js',
      launch: (bin) => ({ bin, args: [], env: { SLACK_BOT_TOKEN: SLACK_TOKEN, SLACK_TEAM_ID: 'T0BENCH' } }),
    },
    goal: 1,
    goalOn: 'same',
  },
  {
    name: 'postgres',
    ours: () => ({ bin: ourBin('postgres'), args: [PG_URL] }),
    official: {
      pkg: '@modelcontextprotocol/server-postgres',
      entry: 'dist/index.js',
      launch: (bin) => ({ bin, args: [PG_URL] }),
    },
    goal: 1,
    goalOn: 'same',
  },
  {
    name: 'sqlite',
    // An empty file is an empty SQLite database; read-only (the default) never creates one.
    ours: (tmp) => {
      const db = join(tmp, 'context.db');
      writeFileSync(db, '');
      return { bin: ourBin('sqlite'), args: ['--db-path', db] };
    },
    goal: 1,
    goalOn: 'same',
  },
  {
    name: 'drive',
    ours: (tmp) => ({ bin: ourBin('drive'), args: [], env: driveCredentials(tmp) }),
    official: {
      pkg: '@modelcontextprotocol/server-gdrive',
      entry: 'dist/index.js',
      launch: (bin, tmp) => ({ bin, args: [], env: driveCredentials(tmp) }),
    },
    goal: 1,
    goalOn: 'same',
  },
  {
    name: 'browser',
    ours: () => ({ bin: ourBin('browser'), args: [] }),
    official: {
      pkg: '@playwright/mcp',
      entry: 'cli.js',
      launch: (bin) => ({ bin, args: ['--headless', '--isolated'] }),
    },
    goal: 0.8,
    goalOn: 'total',
  },
];

/**
 * A Drive token file in `tmp` (both Drive servers read GDRIVE_CREDENTIALS_PATH at startup and exit
 * without one; listing tools sends no request). Returns the env naming it.
 */
export function driveCredentials(tmp: string): Record<string, string> {
  const file = join(tmp, 'drive-credentials.json');
  writeFileSync(file, JSON.stringify({ access_token: 'ya29.bench', expiry_date: Date.now() + 3_600_000 }));
  return { GDRIVE_CREDENTIALS_PATH: file, GDRIVE_OAUTH_PATH: join(tmp, 'no-keys.json') };
}

function ourBin(dir: string): string {
  return resolve(BENCH_DIR, `../servers/${dir}/dist/index.js`);
}

function officialBin(pkg: string, entry: string): string {
  const pkgJson = createRequire(join(BENCH_DIR, 'package.json')).resolve(`${pkg}/package.json`);
  return join(dirname(pkgJson), entry);
}

/** What one server's tools/list costs. */
export interface ContextFigures {
  tools: number;
  /** JSON bytes (UTF-8) of `{name, description, inputSchema}` of every tool. */
  modelBytes: number;
  /** JSON bytes of every tools/list result, all pages. */
  listBytes: number;
  /** Model bytes of each tool, by name. */
  perTool: Map<string, number>;
}

/** "Model bytes" of one tool: what a host sends the model every turn, `JSON.stringify({ name, description, inputSchema })` in UTF-8. */
export function toolModelBytes(tool: { name: string; description?: string; inputSchema: unknown }): number {
  const { name, description, inputSchema } = tool;
  return Buffer.byteLength(JSON.stringify({ name, description, inputSchema }));
}

/**
 * The context figures of a tool list: `tools` as listed, `listBytes` the bytes of the raw results,
 * model bytes per {@link toolModelBytes}.
 */
export function contextFigures(tools: Tool[], listBytes: number): ContextFigures {
  let modelBytes = 0;
  const perTool = new Map<string, number>();
  for (const tool of tools) {
    const bytes = toolModelBytes(tool);
    perTool.set(tool.name, bytes);
    modelBytes += bytes;
  }
  return { tools: tools.length, modelBytes, listBytes, perTool };
}

/** Starts `launch`, reads every page of tools/list raw, stops it. Throws when it does not answer. */
async function measure(launch: Launch, timeoutMs: number): Promise<ContextFigures> {
  const transport = new StdioTransport(process.execPath, [launch.bin, ...launch.args], {
    ...getDefaultEnvironment(),
    ...launch.env,
  });
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  try {
    await client.connect(transport, { timeout: timeoutMs });
    const tools: Tool[] = [];
    let listBytes = 0;
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const params = cursor ? { cursor } : {};
      const result = (
        launch.raw
          ? await rawList(transport, params, timeoutMs)
          : await client.request({ method: 'tools/list', params }, { timeout: timeoutMs })
      ) as { tools: Tool[]; nextCursor?: string };
      listBytes += Buffer.byteLength(JSON.stringify(result));
      tools.push(...result.tools);
      if (!result.nextCursor) break;
      cursor = result.nextCursor;
    }
    return contextFigures(tools, listBytes);
  } catch (error) {
    const tail = transport.stderrTail.trim().split('\n').pop();
    throw new Error(`${errorText(error)}${tail ? ` — stderr: ${tail}` : ''}`);
  } finally {
    await client.close().catch(() => {});
  }
}

/** One tools/list page read raw (no result validation). Errors: a JSON-RPC error or no answer in time. */
async function rawList(transport: StdioTransport, params: Record<string, unknown>, timeoutMs: number) {
  const answer = await withTimeout(transport.rawRequest('tools/list', params), timeoutMs, 'tools/list');
  if (answer.error)
    throw new Error(`tools/list: JSON-RPC error ${answer.error.code}: ${answer.error.message}`);
  return answer.result as unknown;
}

/**
 * Row C1s: model bytes of only the tools both servers list (by name), so that a server with more
 * tools than the official one is compared on the same tools. Omitted when the sets are the same or
 * disjoint, or there is no official server.
 */
function sameTools(pair: Pair, figures: Partial<Record<Side, ContextFigures>>): Row[] {
  const { ours, official } = figures;
  if (!ours || !official) return [];
  const common = [...ours.perTool.keys()].filter((name) => official.perTool.has(name));
  if (common.length === 0 || (common.length === ours.tools && common.length === official.tools)) return [];
  const sum = (f: ContextFigures) => common.reduce((total, name) => total + (f.perTool.get(name) ?? 0), 0);
  return [
    row({
      id: 'C1s',
      name: `${pair.name} model bytes, the ${common.length} tools both list`,
      unit: 'bytes',
      better: 'lower',
      ours: { value: sum(ours) },
      official: { value: sum(official) },
      ...(pair.goalOn === 'same'
        ? { goal: { ratioAtMost: pair.goal, text: `≤ ${pair.goal.toFixed(1)}×` } }
        : {}),
    }),
  ];
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The `context` suite: rows C1 (model bytes) and C2 (whole tools/list) per server, plus GitHub per tool. */
export async function contextWorkload(ctx: Context): Promise<WorkloadResult> {
  const tmp = mkdtempSync(join(tmpdir(), 'refmcp-bench-context-'));
  const timeout = Math.min(ctx.sizes.callTimeoutMs, 60_000);
  const rows: Row[] = [];
  const notes: string[] = [];
  try {
    for (const pair of PAIRS) {
      const figures: Partial<Record<Side, ContextFigures>> = {};
      const errors: Partial<Record<Side, string>> = {};
      const launches: Partial<Record<Side, () => Launch>> = { ours: () => pair.ours(tmp) };
      if (pair.official) {
        const { pkg, entry, launch } = pair.official;
        launches.official = () => launch(officialBin(pkg, entry), tmp);
      }
      for (const side of ['ours', 'official'] as const) {
        const make = launches[side];
        if (!make) continue;
        ctx.log(`context ${pair.name}: ${side}`);
        try {
          figures[side] = await measure(make(), timeout);
        } catch (error) {
          errors[side] = errorText(error);
          ctx.log(`context ${pair.name} ${side}: ${errors[side]}`);
        }
      }
      const cell = (side: Side, pick: (f: ContextFigures) => number): Cell => {
        const f = figures[side];
        if (f) return { value: pick(f) };
        return errors[side] ? { error: errors[side] } : {};
      };
      const count = (side: Side) => figures[side]?.tools ?? '?';
      const tools = `${count('ours')} vs ${pair.official ? count('official') : '—'} tools`;
      rows.push(
        row({
          id: 'C1',
          name: `${pair.name} model bytes (${tools})`,
          unit: 'bytes',
          better: 'lower',
          ours: cell('ours', (f) => f.modelBytes),
          official: cell('official', (f) => f.modelBytes),
          ...(pair.official && pair.goalOn === 'total'
            ? { goal: { ratioAtMost: pair.goal, text: `≤ ${pair.goal.toFixed(1)}×` } }
            : {}),
        }),
        ...sameTools(pair, figures),
        row({
          id: 'C2',
          name: `${pair.name} whole tools/list`,
          unit: 'bytes',
          better: 'lower',
          ours: cell('ours', (f) => f.listBytes),
          official: cell('official', (f) => f.listBytes),
        }),
      );
      if (pair.perTool) {
        const perTool = (f: ContextFigures) => (f.tools ? f.modelBytes / f.tools : 0);
        const ours = figures.ours ? perTool(figures.ours) : undefined;
        rows.push(
          row({
            id: 'C3',
            name: `${pair.name} model bytes per tool`,
            unit: 'bytes',
            better: 'lower',
            ours: cell('ours', (f) => Math.round(perTool(f))),
            official: cell('official', (f) => Math.round(perTool(f))),
            goal: pair.perTool(ours),
          }),
        );
      }
      if (pair.note) notes.push(pair.note);
      const f = figures.ours;
      if (f)
        notes.push(
          `context ${pair.name}: ours ${f.tools} tools, ${kb(f.modelBytes)} model, ${kb(f.listBytes)} listed`,
        );
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return { rows, notes };
}

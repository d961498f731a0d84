/**
 * Row F1 (issue 14, "the first start"): what a user pays once — a host's first `npx -y` of a server
 * package with an empty npm cache, from spawn until `tools/list` is answered (install included).
 *
 * - Ours is not on npm: its release tarball (`packRelease`) is published to a loopback Verdaccio
 *   (`publishToLoopback`, the release rehearsal's registry) and run by name, `npx -y
 *   @refmcp/server-<name>`; its runtime dependencies come through Verdaccio's uplink, the registry
 *   this machine's npm uses.
 * - The official package (the bench dependency's version) comes from registry.npmjs.org.
 * - Each run of each side gets a fresh `npm_config_cache`; the sides alternate.
 *
 * Needs the network: skipped with a note when the npm registry cannot be reached, or with `--offline`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type LoopbackRelease, publishToLoopback } from '@refmcp/release/loopback';
import { packRelease } from '@refmcp/release/tarballs';
import { type Connection, connect } from '@refmcp/test-harness';
import { errorText, now } from '../measure.js';
import { type Row, row } from '../report.js';
import { BENCH_DIR, SIDES, type Side } from '../servers.js';
import { type Context, cellOf, perSide, type SideRuns, type WorkloadResult } from './common.js';
import { driveCredentials } from './context.js';

/** The registry the official packages are installed from. */
export const NPM_REGISTRY = 'https://registry.npmjs.org/';

/** One server: ours in servers/<name>, the official package, and arguments that start both offline. */
interface FirstStartPair {
  name: string;
  /** Row label when one server is compared with several officials; default `name`. */
  title?: string;
  officialPkg: string;
  ourArgs: (tmp: string) => string[];
  officialArgs: (tmp: string) => string[];
  env?: Record<string, string>;
  /** Environment made for a run in `tmp` (credential files). */
  envIn?: (tmp: string) => Record<string, string>;
  /** Goal, ours ÷ official. */
  goal: number;
  /** Read the official server's tools/list raw (see {@link rawToolsList}). */
  officialRawList?: boolean;
}

const FAKE_TOKEN = 'ghp_benchFirstStartNotARealToken000000000';
// Both PostgreSQL servers connect on the first query only: no database is needed to list tools.
const PG_URL = 'postgresql://bench@127.0.0.1:1/bench';

const PAIRS: FirstStartPair[] = [
  {
    name: 'filesystem',
    officialPkg: '@modelcontextprotocol/server-filesystem',
    ourArgs: (tmp) => [tmp],
    officialArgs: (tmp) => [tmp],
    goal: 0.5,
  },
  {
    name: 'github',
    officialPkg: '@modelcontextprotocol/server-github',
    ourArgs: () => [],
    officialArgs: () => [],
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: FAKE_TOKEN },
    goal: 0.5,
  },
  {
    // Issue 15. The reference exits without a token; neither calls GitLab to list tools.
    name: 'gitlab',
    officialPkg: '@modelcontextprotocol/server-gitlab',
    ourArgs: () => [],
    officialArgs: () => [],
    env: { GITLAB_PERSONAL_ACCESS_TOKEN: 'glpat-benchFirstStartNotARealToken' },
    goal: 0.5,
    // As npm installs it today, the reference imports the zod 4 that npm hoists (its own SDK
    // brings zod 3): its schemas come out without `type`, and the 2.x client refuses the list.
    officialRawList: true,
  },
  {
    name: 'slack',
    officialPkg: '@modelcontextprotocol/server-slack',
    ourArgs: () => [],
    officialArgs: () => [],
    // The official server exits without SLACK_TEAM_ID; ours does not need it.
    env: { SLACK_BOT_TOKEN: 'xoxb-benchFirstStartNotARealToken', SLACK_TEAM_ID: 'T0BENCH' },
    goal: 0.5,
  },
  {
    name: 'postgres',
    officialPkg: '@modelcontextprotocol/server-postgres',
    ourArgs: () => [PG_URL],
    officialArgs: () => [PG_URL],
    goal: 0.5,
  },
  {
    name: 'drive',
    officialPkg: '@modelcontextprotocol/server-gdrive',
    ourArgs: () => [],
    officialArgs: () => [],
    envIn: driveCredentials,
    goal: 0.5,
  },
  {
    name: 'browser',
    officialPkg: '@playwright/mcp',
    ourArgs: () => [],
    officialArgs: () => ['--headless', '--isolated'],
    goal: 0.8,
  },
  {
    name: 'search',
    title: 'search vs server-brave-search',
    officialPkg: '@modelcontextprotocol/server-brave-search',
    ourArgs: () => [],
    officialArgs: () => [],
    env: { BRAVE_API_KEY: 'BSAbenchFirstStartNotARealKey' },
    goal: 0.5,
  },
  {
    name: 'search',
    title: 'search vs @brave/brave-search-mcp-server',
    officialPkg: '@brave/brave-search-mcp-server',
    ourArgs: () => [],
    officialArgs: () => [],
    env: { BRAVE_API_KEY: 'BSAbenchFirstStartNotARealKey' },
    goal: 0.5,
  },
];

/** npm settings both sides get: no audit, fund or update check (a host's npx does those alike). */
const QUIET_NPM = {
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

/** Why registry.npmjs.org cannot be used (unreachable, not OK), or undefined when it can. */
export async function npmRegistryUnreachable(timeoutMs = 10_000): Promise<string | undefined> {
  try {
    const response = await fetch(`${NPM_REGISTRY}-/ping`, { signal: AbortSignal.timeout(timeoutMs) });
    return response.ok ? undefined : `${NPM_REGISTRY} answered HTTP ${response.status}`;
  } catch (error) {
    return `${NPM_REGISTRY} cannot be reached (${errorText(error)})`;
  }
}

/** `name@version` of the official package as the bench depends on it (bench/package.json). */
function officialSpec(pkg: string): string {
  const pkgJson = createRequire(join(BENCH_DIR, 'package.json')).resolve(`${pkg}/package.json`);
  const { version } = JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string };
  return `${pkg}@${version}`;
}

/**
 * tools/list sent beside the SDK client and read raw from the recorded stdout (no result
 * validation): resolves when the answer arrives. Errors: a JSON-RPC error, or none in `timeoutMs`.
 */
async function rawToolsList(connection: Connection, timeoutMs: number): Promise<void> {
  const transport = connection.client.transport;
  if (!transport) throw new Error('tools/list: not connected');
  const id = 'raw-firststart-tools-list';
  await transport.send({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
  const needle = `"id":"${id}"`;
  const deadline = now() + timeoutMs;
  while (now() < deadline) {
    const line = connection.stdoutLines().find((l) => l.includes(needle));
    if (line) {
      const error = (JSON.parse(line) as { error?: { code: number; message: string } }).error;
      if (error) throw new Error(`tools/list: JSON-RPC error ${error.code}: ${error.message}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`tools/list: no answer within ${timeoutMs} ms`);
}

/** One `npx -y …` with its own empty npm cache: spawn → tools/list answered, in ms. */
async function firstStart(
  args: string[],
  cwd: string,
  env: Record<string, string>,
  work: string,
  timeoutMs: number,
  rawList = false,
): Promise<number> {
  const cache = mkdtempSync(join(work, 'npm-cache-'));
  const started = now();
  const connection = await connect({
    command: 'npx',
    args: ['-y', ...args],
    cwd,
    env: { ...QUIET_NPM, ...env, npm_config_cache: cache },
    timeoutMs,
  });
  try {
    if (rawList) await rawToolsList(connection, timeoutMs);
    else await connection.client.listTools(undefined, { timeout: timeoutMs });
    return now() - started;
  } finally {
    await connection.close();
    rmSync(cache, { recursive: true, force: true });
  }
}

/** Runs of one pair, alternating ours and official; a side that fails is skipped afterwards. */
async function measurePair(
  ctx: Context,
  pair: FirstStartPair,
  work: string,
  reps: number,
): Promise<Record<Side, SideRuns<number>>> {
  const runs: Record<Side, SideRuns<number>> = { ours: { results: [] }, official: { results: [] } };
  const timeoutMs = Math.min(ctx.sizes.callTimeoutMs, 5 * 60_000);
  const dir = mkdtempSync(join(work, `${pair.name}-`));
  const packDir = join(dir, 'pack');
  const target = join(dir, 'target');
  const emptyCwd = join(dir, 'cwd');
  for (const d of [packDir, target, emptyCwd]) mkdirSync(d);
  let release: LoopbackRelease | undefined;
  let packageName: string | undefined;
  try {
    const tarballs = packRelease(resolve(BENCH_DIR, '..'), packDir, [pair.name]);
    packageName = tarballs[0]?.name;
    release = await publishToLoopback(dir, tarballs);
  } catch (error) {
    runs.ours.error = `packing ours: ${errorText(error)}`;
  }
  const spec = officialSpec(pair.officialPkg);
  const made = pair.envIn?.(target) ?? {};
  const launches: Record<Side, () => Promise<number>> = {
    ours: () =>
      firstStart(
        [`${packageName}`, ...pair.ourArgs(target)],
        emptyCwd,
        { ...pair.env, ...made, npm_config_registry: release?.registry.url ?? '' },
        dir,
        timeoutMs,
      ),
    official: () =>
      firstStart(
        [spec, ...pair.officialArgs(target)],
        emptyCwd,
        { ...pair.env, ...made, npm_config_registry: NPM_REGISTRY },
        dir,
        timeoutMs,
        pair.officialRawList,
      ),
  };
  try {
    for (let rep = 0; rep < reps; rep++) {
      for (const side of SIDES) {
        if (runs[side].error) continue;
        ctx.log(`first start ${pair.name}: ${side} ${rep + 1}/${reps}`);
        try {
          runs[side].results.push(await launches[side]());
        } catch (error) {
          runs[side].error = errorText(error);
          ctx.log(`first start ${pair.name} ${side} failed: ${runs[side].error}`);
        }
      }
    }
  } finally {
    await release?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return runs;
}

/** The `firststart` suite: row F1 per server (filesystem, github, gitlab, slack, postgres, drive, browser). */
export async function firstStartWorkload(ctx: Context): Promise<WorkloadResult> {
  const skip = ctx.offline ? '--offline' : await npmRegistryUnreachable();
  if (skip) return { rows: [], notes: [`first start (F1): skipped — ${skip}; it needs ${NPM_REGISTRY}`] };
  const reps = ctx.sizes.firstStarts;
  const work = mkdtempSync(join(tmpdir(), 'refmcp-bench-firststart-'));
  const rows: Row[] = [];
  const notes: string[] = [];
  const fmt = (ms: number[]) => `${Math.round(Math.min(...ms))}–${Math.round(Math.max(...ms))} ms`;
  try {
    // REFMCP_BENCH_FIRSTSTART=search,github limits the pairs (one server's figure without the rest).
    const only = process.env.REFMCP_BENCH_FIRSTSTART?.split(',').filter(Boolean);
    for (const pair of PAIRS.filter((p) => !only?.length || only.includes(p.name))) {
      const runs = await measurePair(ctx, pair, work, reps);
      rows.push(
        row({
          id: 'F1',
          name: `${pair.title ?? pair.name} first npx -y, empty npm cache → tools/list (${reps} runs)`,
          unit: 'ms',
          better: 'lower',
          ours: cellOf(runs.ours, (ms) => ms),
          official: cellOf(runs.official, (ms) => ms),
          goal: { ratioAtMost: pair.goal, text: `≤ ${pair.goal.toFixed(1)}×` },
        }),
      );
      notes.push(`first start ${pair.title ?? pair.name}: ${perSide(runs, fmt)}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  notes.push(
    `first start (F1): ours is installed by name from a loopback Verdaccio (it is not on npm), its dependencies through Verdaccio's uplink (cached there after the first run), the official package and its dependencies from ${NPM_REGISTRY}`,
  );
  return { rows, notes };
}

/**
 * The two servers of a suite — ours (servers/<dir>) and the official one (a bench
 * dependency) — and a session on either with the environment they need. Official servers that
 * hard-code their vendor's origin (https://api.github.com, https://slack.com/api/) get a preload
 * (`node --import`) that rewrites that prefix to the local fake in `fetch` (they use the global
 * fetch) — a string replace per request, nothing else. Cold starts are measured without it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { errorText, now } from './measure.js';
import { type Answer, type Row, row } from './report.js';
import { BENCH_DIR, type ServerUnderTest, type Side } from './servers.js';
import { type RawResponse, StdioTransport } from './transport.js';
import { alternate, type Context, cellOf, perSide, preview, type SideRuns } from './workloads/common.js';

function label(packageJson: string): string {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { name?: string; version?: string };
  return `${pkg.name ?? '?'} ${pkg.version ?? '?'}`;
}

/**
 * Finds ours (`servers/<dir>/dist/index.js`) and the official `officialPkg` (its `entry`); an
 * absent one is returned with `missing` set, not thrown.
 */
export function locateApiServers(
  dir: string,
  officialPkg: string,
  entry = 'dist/index.js',
): Record<Side, ServerUnderTest> {
  const oursDir = resolve(BENCH_DIR, `../servers/${dir}`);
  const oursBin = join(oursDir, 'dist/index.js');
  let built = true;
  try {
    readFileSync(oursBin);
  } catch {
    built = false;
  }
  const ours: ServerUnderTest = {
    side: 'ours',
    label: label(join(oursDir, 'package.json')),
    bin: oursBin,
    ...(built ? {} : { missing: `not built (${oursBin} is missing)` }),
  };
  let official: ServerUnderTest;
  try {
    const pkgJson = createRequire(join(BENCH_DIR, 'package.json')).resolve(`${officialPkg}/package.json`);
    official = { side: 'official', label: label(pkgJson), bin: join(dirname(pkgJson), entry) };
  } catch (error) {
    official = {
      side: 'official',
      label: officialPkg,
      bin: '',
      missing: `not installed: ${errorText(error)}`,
    };
  }
  return { ours, official };
}

/** Writes `file` in `dataRoot`: a preload rewriting URLs that start with `from` to start with `to` in fetch; returns its file URL. */
export function fetchRedirectPreload(dataRoot: string, file: string, from: string, to: string): string {
  mkdirSync(dataRoot, { recursive: true });
  const path = join(dataRoot, file);
  writeFileSync(
    path,
    `const from = ${JSON.stringify(from)};
const to = ${JSON.stringify(to)};
const original = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = String(input);
  return original(url.startsWith(from) ? to + url.slice(from.length) : input, init);
};
`,
  );
  return pathToFileURL(path).href;
}

export interface ApiSession {
  client: Client;
  transport: StdioTransport;
  /** Spawn → tools/list answered, in ms. */
  readyMs: number;
  rawCall(name: string, args: Record<string, unknown>): Promise<RawResponse>;
  close(): Promise<void>;
}

/** Spawns `server` (with `preload`, if given) with `env` overlaid on a host-like environment, connects and lists tools. */
export async function startApiSession(
  server: ServerUnderTest,
  opts: { env: Record<string, string>; args?: string[]; preload?: string; timeoutMs: number },
): Promise<ApiSession> {
  if (server.missing) throw new Error(server.missing);
  const nodeArgs = [...(opts.preload ? ['--import', opts.preload] : []), server.bin, ...(opts.args ?? [])];
  const transport = new StdioTransport(process.execPath, nodeArgs, {
    ...getDefaultEnvironment(),
    ...opts.env,
  });
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  const started = now();
  try {
    await client.connect(transport, { timeout: opts.timeoutMs });
    await client.listTools(undefined, { timeout: opts.timeoutMs });
  } catch (error) {
    await transport.close().catch(() => {});
    throw new Error(
      `${errorText(error)}${transport.stderrTail ? ` — stderr: ${transport.stderrTail.trim().split('\n').pop()}` : ''}`,
    );
  }
  return {
    client,
    transport,
    readyMs: now() - started,
    rawCall: (name, args) => transport.rawRequest('tools/call', { name, arguments: args }),
    close: async () => {
      await client.close().catch(() => {});
    },
  };
}

/** Starts a session on one side; `withPreload` adds the official side's fetch redirect. */
export type SessionFor = (server: ServerUnderTest, withPreload: boolean) => Promise<ApiSession>;

/** Cold starts (spawn → tools/list, no preload), one warm-up each first: `ctx.sizes.coldStarts` alternated runs. */
export async function coldStartRuns(
  ctx: Context,
  name: string,
  session: SessionFor,
): Promise<Record<Side, SideRuns<number>>> {
  const cold = async (server: ServerUnderTest) => {
    const s = await session(server, false);
    await s.close();
    return s.readyMs;
  };
  await alternate(ctx, 1, `${name} cold start warm-up`, cold);
  return alternate(ctx, ctx.sizes.coldStarts, `${name} cold start`, cold);
}

/** What one call returned: the text a model reads and the structuredContent, with their UTF-8 sizes. */
export interface OutputSize {
  bytes: number;
  structuredBytes: number | undefined;
  text: string;
  structured: unknown;
}

/** JSON bytes (UTF-8) of `value`. */
export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');

/** One call of `tool` with `args` on each side (with the preload): its output sizes. Errors: the call failing. */
export function outputSizeRuns(
  ctx: Context,
  name: string,
  session: SessionFor,
  tool: string,
  args: Record<string, unknown>,
): Promise<Record<Side, SideRuns<OutputSize>>> {
  return alternate(ctx, 1, `${name} ${tool} output size`, async (server) => {
    const s = await session(server, true);
    try {
      const r = await s.rawCall(tool, args);
      if (r.error || r.result?.isError)
        throw new Error(`${tool} failed: ${preview(JSON.stringify(r.error ?? r.result?.content), 300)}`);
      const text = (r.result?.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');
      return {
        bytes: Buffer.byteLength(text, 'utf8'),
        structuredBytes: r.result?.structuredContent ? jsonBytes(r.result.structuredContent) : undefined,
        text,
        structured: r.result?.structuredContent,
      };
    } finally {
      await s.close();
    }
  });
}

/** The report row of {@link coldStartRuns}. */
export function coldStartRow(
  id: string,
  name: string,
  ctx: Context,
  runs: Record<Side, SideRuns<number>>,
  goal?: number,
): Row {
  return row({
    id,
    name: `${name} cold start → tools/list answered (${ctx.sizes.coldStarts} starts)`,
    unit: 'ms',
    better: 'lower',
    ours: cellOf(runs.ours, (ms) => ms),
    official: cellOf(runs.official, (ms) => ms),
    ...(goal !== undefined ? { goal: { ratioAtMost: goal, text: `≤ ${goal}×` } } : {}),
  });
}

/** "name cold start: ours 287–622 ms; official 149–619 ms". */
export function coldStartNote(name: string, runs: Record<Side, SideRuns<number>>): string {
  return `${name} cold start: ${perSide(runs, (ms) => `${Math.round(Math.min(...ms))}–${Math.round(Math.max(...ms))} ms`)}`;
}

/** The first 100 characters each side answered `call` with (the report's Answers section). */
export function firstAnswer(label: string, call: string, runs: Record<Side, SideRuns<OutputSize>>): Answer {
  return {
    name: `${label}, first 100 characters`,
    call,
    ours: preview(runs.ours.results[0]?.text ?? '', 100),
    official: preview(runs.official.results[0]?.text ?? runs.official.error ?? '', 100),
  };
}

/**
 * The output-size row with the 0.3× goal (issue 14): our text against the official server's, and
 * `kept` — whether every field a model needs (`keptText` names them) is still in ours.
 */
export function textSizeRow(
  id: string,
  name: string,
  runs: Record<Side, SideRuns<OutputSize>>,
  keptText: string,
  kept: boolean | undefined,
): Row {
  return row({
    id,
    name,
    unit: 'bytes',
    better: 'lower',
    ours: cellOf(runs.ours, (r) => r.bytes),
    official: cellOf(runs.official, (r) => r.bytes),
    goal: {
      ratioAtMost: 0.3,
      text: '≤ 0.3×, nothing needed dropped',
      alsoRequired: { text: keptText, met: kept },
    },
  });
}

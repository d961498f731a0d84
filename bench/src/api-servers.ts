/**
 * The two servers of a suite: ours, built in servers/<name>, and the official package (a bench
 * dependency) — located for the GitHub, GitLab, Slack and PostgreSQL suites — and, for the API
 * suites (GitHub, GitLab, Slack), a session on either with the environment it needs, its pipelined throughput
 * and the size of one answer. tools/list is read raw (no client-side schema validation): what is
 * timed is the server's answer, and a reference server whose schemas the 2.x client would refuse
 * is still measured.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { Sizes } from './config.js';
import { errorText, now, type Throughput, throughput } from './measure.js';
import { BENCH_DIR, type ServerUnderTest, type Side } from './servers.js';
import { type RawResponse, StdioTransport } from './transport.js';
import { preview } from './workloads/common.js';

function label(packageJson: string): string {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { name?: string; version?: string };
  return `${pkg.name ?? '?'} ${pkg.version ?? '?'}`;
}

/**
 * Finds ours (`servers/<name>/dist/index.js`) and `officialPkg` (its `entry`, resolved from
 * bench/); an absent one is returned with `missing` set, not thrown.
 */
export function locateApiServers(
  name: string,
  officialPkg: string,
  entry = 'dist/index.js',
): Record<Side, ServerUnderTest> {
  const oursDir = resolve(BENCH_DIR, `../servers/${name}`);
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

/**
 * Writes `file` in `dataRoot`: a preload (`node --import`) for an official server that hard-codes
 * its vendor's origin (https://api.github.com, https://slack.com/api/) — it rewrites URLs starting
 * with `from` to start with `to` in the global fetch, a string replace per request, nothing else.
 * Returns its file URL. Cold starts are measured without it.
 */
export function fetchRedirectPreload(dataRoot: string, file: string, from: string, to: string): string {
  mkdirSync(dataRoot, { recursive: true });
  const path = join(dataRoot, file);
  writeFileSync(
    path,
    `const from = ${JSON.stringify(from)};
const to = ${JSON.stringify(to)};
const original = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
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
  /** The tools/list result as the server sent it (unvalidated). */
  tools: unknown;
  rawCall(name: string, args: Record<string, unknown>): Promise<RawResponse>;
  close(): Promise<void>;
}

/**
 * Spawns `server` (with `preload` as `node --import`, if given) with `env` overlaid on a host-like
 * environment, runs the handshake and one raw tools/list. Errors: the connect or list failure,
 * with the last stderr line.
 */
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
  let tools: unknown;
  try {
    await client.connect(transport, { timeout: opts.timeoutMs });
    const listed = await withTimeout(transport.rawRequest('tools/list', {}), opts.timeoutMs, 'tools/list');
    if (listed.error)
      throw new Error(`tools/list: JSON-RPC error ${listed.error.code}: ${listed.error.message}`);
    tools = listed.result;
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
    tools,
    rawCall: (name, args) => transport.rawRequest('tools/call', { name, arguments: args }),
    close: async () => {
      await client.close().catch(() => {});
    },
  };
}

/** `promise`, or a rejection naming `what` after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * {@link throughput} of tool `name` with `args` on `session`. Errors: when any timed call fails
 * (JSON-RPC error or isError).
 */
export function callsPerSecond(
  session: ApiSession,
  name: string,
  args: Record<string, unknown>,
  sizes: Pick<Sizes, 'calls' | 'inFlight' | 'warmupCalls'>,
): Promise<Throughput> {
  return throughput(async () => {
    const r = await session.rawCall(name, args);
    if (r.error) return `JSON-RPC error ${r.error.code}: ${r.error.message}`;
    if (r.result?.isError) return `isError: ${preview(JSON.stringify(r.result.content), 200)}`;
    return undefined;
  }, sizes);
}

/** What one tool result costs: its text and structuredContent, and their UTF-8 JSON bytes. */
export interface OutputSize {
  bytes: number;
  structuredBytes?: number;
  text: string;
  structured: unknown;
}

/** UTF-8 bytes of `value` as JSON. */
export const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');

/** Calls `name` once and measures its answer. Errors: a JSON-RPC error or an isError result. */
export async function outputSize(
  session: ApiSession,
  name: string,
  args: Record<string, unknown>,
): Promise<OutputSize> {
  const r = await session.rawCall(name, args);
  if (r.error || r.result?.isError)
    throw new Error(`${name} failed: ${preview(JSON.stringify(r.error ?? r.result?.content), 300)}`);
  const text = (r.result?.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');
  const structured = r.result?.structuredContent;
  return {
    bytes: Buffer.byteLength(text, 'utf8'),
    ...(structured ? { structuredBytes: jsonBytes(structured) } : {}),
    text,
    structured,
  };
}

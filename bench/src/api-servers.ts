/**
 * The two servers of an API suite — ours (servers/<dir>) and the official one (a bench
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
import { BENCH_DIR, type ServerUnderTest, type Side } from './servers.js';
import { type RawResponse, StdioTransport } from './transport.js';

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

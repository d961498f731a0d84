/**
 * The two GitHub servers under test — ours (servers/github) and the official
 * @modelcontextprotocol/server-github 2025.4.8 (a bench dependency) — and a session on either with
 * the environment they need. The official server hard-codes https://api.github.com; to give it the
 * same work as ours, its process gets a preload (`node --import`) that rewrites that origin to the
 * local fake GitHub in `fetch` (it uses the global fetch) — a string replace per request, nothing
 * else. Cold starts are measured without the preload.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { errorText, now } from '../measure.js';
import { BENCH_DIR, type ServerUnderTest, type Side } from '../servers.js';
import { type RawResponse, StdioTransport } from '../transport.js';

function label(packageJson: string): string {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { name?: string; version?: string };
  return `${pkg.name ?? '?'} ${pkg.version ?? '?'}`;
}

/** Finds both servers; an absent one is returned with `missing` set, not thrown. */
export function locateGithubServers(): Record<Side, ServerUnderTest> {
  const oursDir = resolve(BENCH_DIR, '../servers/github');
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
    const pkgJson = createRequire(join(BENCH_DIR, 'package.json')).resolve(
      '@modelcontextprotocol/server-github/package.json',
    );
    official = { side: 'official', label: label(pkgJson), bin: join(dirname(pkgJson), 'dist/index.js') };
  } catch (error) {
    official = {
      side: 'official',
      label: '@modelcontextprotocol/server-github',
      bin: '',
      missing: `not installed: ${errorText(error)}`,
    };
  }
  return { ours, official };
}

/**
 * Writes a fetch-redirect preload for an official server that hard-codes its API origin: requests
 * whose URL starts with `from` (default https://api.github.com) go to `fakeUrl` instead. Returns
 * its file URL (for `node --import`). The search suite uses it for https://api.search.brave.com.
 */
export function redirectPreload(
  dataRoot: string,
  fakeUrl: string,
  from = 'https://api.github.com',
  name = 'github-redirect.mjs',
): string {
  mkdirSync(dataRoot, { recursive: true });
  const file = join(dataRoot, name);
  writeFileSync(
    file,
    `const from = ${JSON.stringify(from)};
const target = ${JSON.stringify(fakeUrl)};
const original = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  return original(url.startsWith(from) ? target + url.slice(from.length) : input, init);
};
`,
  );
  return pathToFileURL(file).href;
}

export interface GithubSession {
  client: Client;
  transport: StdioTransport;
  /** Spawn → tools/list answered, in ms. */
  readyMs: number;
  rawCall(name: string, args: Record<string, unknown>): Promise<RawResponse>;
  close(): Promise<void>;
}

/** Spawns `server` (with `preload`, if given) with `env` overlaid on a host-like environment, connects and lists tools. */
export async function startGithubSession(
  server: ServerUnderTest,
  opts: { env: Record<string, string>; args?: string[]; preload?: string; timeoutMs: number },
): Promise<GithubSession> {
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

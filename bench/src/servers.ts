/**
 * The two servers under test (ours, built from servers/filesystem, and the official
 * @modelcontextprotocol/server-filesystem), and a session: one spawned server with a connected
 * MCP client, its pid, its stderr and how long it took to answer tools/list.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CallToolResult, Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { errorText, now, peakRssBytes } from './measure.js';
import { type RawResponse, StdioTransport } from './transport.js';

export type Side = 'ours' | 'official';
export const SIDES: readonly Side[] = ['ours', 'official'];

export interface ServerUnderTest {
  side: Side;
  /** Package name and version (from its package.json). */
  label: string;
  /** The built entry point, run with this Node. */
  bin: string;
  /** Why it cannot run (not built, not installed); undefined when it can. */
  missing?: string;
}

/** bench/ (this file runs from bench/src or, bundled, from bench/dist). */
export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function packageLabel(packageJson: string): string {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { name?: string; version?: string };
  return `${pkg.name ?? '?'} ${pkg.version ?? '?'}`;
}

function exists(path: string): boolean {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Finds both servers; a server that is absent is returned with `missing` set, not thrown. */
export function locateServers(): Record<Side, ServerUnderTest> {
  const oursDir = resolve(BENCH_DIR, '../servers/filesystem');
  const oursBin = join(oursDir, 'dist/index.js');
  const ours: ServerUnderTest = {
    side: 'ours',
    label: packageLabel(join(oursDir, 'package.json')),
    bin: oursBin,
    missing: exists(oursBin) ? undefined : `not built (${oursBin} is missing)`,
  };
  let official: ServerUnderTest;
  try {
    const requireFromBench = createRequire(join(BENCH_DIR, 'package.json'));
    const pkgJson = requireFromBench.resolve('@modelcontextprotocol/server-filesystem/package.json');
    official = {
      side: 'official',
      label: packageLabel(pkgJson),
      bin: join(dirname(pkgJson), 'dist/index.js'),
    };
  } catch (error) {
    official = {
      side: 'official',
      label: '@modelcontextprotocol/server-filesystem',
      bin: '',
      missing: `not installed: ${errorText(error)}`,
    };
  }
  return { ours, official };
}

/** What each server reported in initialize (name and version), filled in by the first session. */
export const reportedVersions: Partial<Record<Side, string>> = {};

/** Every live session, so a crash of the bench still reaps its servers. */
const live = new Set<Session>();
process.on('exit', () => {
  for (const session of live) session.kill();
});

export class Session {
  /** Spawn → tools/list answered, in ms. */
  readonly readyMs: number;

  private constructor(
    readonly server: ServerUnderTest,
    readonly client: Client,
    private readonly transport: StdioTransport,
    readyMs: number,
  ) {
    this.readyMs = readyMs;
  }

  /** Spawns `server` allowed into `dirs`, connects, and waits for tools/list. */
  static async start(server: ServerUnderTest, dirs: string[], timeoutMs: number): Promise<Session> {
    if (server.missing) throw new Error(server.missing);
    const transport = new StdioTransport(process.execPath, [server.bin, ...dirs], getDefaultEnvironment());
    const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    const started = now();
    try {
      await client.connect(transport, { timeout: timeoutMs });
      await client.listTools(undefined, { timeout: timeoutMs });
    } catch (error) {
      await transport.close().catch(() => {});
      const stderr = transport.stderrTail ? ` — stderr: ${lastLine(transport.stderrTail)}` : '';
      throw new Error(`${errorText(error)}${stderr}`);
    }
    const session = new Session(server, client, transport, now() - started);
    live.add(session);
    reportedVersions[server.side] ??= session.reportedVersion;
    return session;
  }

  get pid(): number | undefined {
    return this.transport.pid;
  }

  /** The server's name and version as it reported them in initialize. */
  get reportedVersion(): string {
    const info = this.client.getServerVersion();
    return info ? `${info.name} ${info.version}` : '?';
  }

  /** Calls a tool; a JSON-RPC error or a dead server rejects (with the server's last stderr line). */
  async call(name: string, args: Record<string, unknown>, timeoutMs: number): Promise<CallToolResult> {
    try {
      return await this.client.callTool({ name, arguments: args }, { timeout: timeoutMs });
    } catch (error) {
      const stderr = this.transport.stderrTail;
      const tail = stderr ? ` — stderr: ${lastLine(stderr)}` : '';
      throw new Error(`${errorText(error)}${tail}`);
    }
  }

  /** tools/call over the raw path (see StdioTransport.rawRequest): an error message, or undefined. */
  async rawCall(name: string, args: Record<string, unknown>): Promise<string | undefined> {
    const response = await this.transport.rawRequest('tools/call', { name, arguments: args });
    if (response.error) return `JSON-RPC error ${response.error.code}: ${response.error.message}`;
    if (response.result?.isError) return `isError: ${resultText(response.result).slice(0, 200)}`;
    return undefined;
  }

  /** tools/call over the raw path: the response as received (no client-side schema validation). */
  rawResponse(name: string, args: Record<string, unknown>): Promise<RawResponse> {
    return this.transport.rawRequest('tools/call', { name, arguments: args });
  }

  /** Peak RSS (VmHWM) of the server process so far, in bytes. */
  peakRss(): Promise<number | undefined> {
    return peakRssBytes(this.pid);
  }

  async close(): Promise<void> {
    live.delete(this);
    // EOF on stdin, then SIGTERM, then SIGKILL (StdioTransport.close).
    await this.client.close().catch(() => {});
  }

  /** SIGKILL if still running (the exit-time safety net). */
  kill(): void {
    this.transport.kill();
  }
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}

/** The text blocks of a tool result, concatenated. */
export function resultText(result: CallToolResult): string {
  let text = '';
  for (const block of result.content ?? []) if (block.type === 'text') text += block.text;
  return text;
}

/** Runs `body` with a fresh session of `server`, closing it afterwards whatever happens. */
export async function withSession<T>(
  server: ServerUnderTest,
  dirs: string[],
  timeoutMs: number,
  body: (session: Session) => Promise<T>,
): Promise<T> {
  const session = await Session.start(server, dirs, timeoutMs);
  try {
    return await body(session);
  } finally {
    await session.close();
  }
}

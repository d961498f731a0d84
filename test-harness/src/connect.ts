// Spawn a stdio MCP server and connect an SDK client to it, in either protocol era, keeping the
// raw stdout and stderr for the checks.
import { fileURLToPath } from 'node:url';
import { Client, type ClientCapabilities, type Implementation } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { killAndWait, type ProcessId } from './process-tree.js';
import { type LaunchTarget, type ProcessExit, RecordingStdioTransport } from './transport.js';

/** `legacy` = the 2025-11-25 `initialize` handshake; `modern` = the 2026-07-28 `server/discover` era. */
export type Era = 'legacy' | 'modern';

/** The protocol revision a `modern` connection pins. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** Options for {@link connect}: where the server is, which era to speak, how long to wait. */
export interface ConnectOptions extends LaunchTarget {
  /** Protocol era to negotiate; default `legacy`. */
  era?: Era;
  /** Capabilities the client declares (e.g. `{ elicitation: { form: {} } }`); default none. */
  capabilities?: ClientCapabilities;
  /** Time allowed for spawn + handshake, in milliseconds; default 10 000. */
  timeoutMs?: number;
  /** Grace between stdin EOF, SIGTERM and SIGKILL when closing, in milliseconds; default 500. */
  closeGraceMs?: number;
}

/** A live connection to a spawned server. */
export interface Connection {
  /** The connected SDK client. */
  client: Client;
  /** The era the client actually negotiated. */
  era: Era;
  /** Negotiated protocol version, e.g. `2025-11-25` or `2026-07-28`. */
  protocolVersion: string | undefined;
  /** The server's self-reported name/version. */
  serverInfo: Implementation | undefined;
  /** Every raw stdout line so far, JSON-RPC or not, without newlines. */
  stdoutLines(): string[];
  /** The stdout lines that did not parse as a JSON-RPC message (ALL-01 violations). */
  nonJsonStdout(): string[];
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Process id of the spawned server. */
  pid: number;
  /** Resolves when the server process has exited (never rejects). */
  exited: Promise<ProcessExit>;
  /** The exit status if the process has exited, else undefined (i.e. it is still running). */
  exitStatus(): ProcessExit | undefined;
  /** Descendant processes of the server seen while it ran (also those orphaned by a crash). */
  descendantsSeen(): ProcessId[];
  /** "tools/call echo" for the JSON-RPC id of a request the client sent, else undefined. */
  requestLabel(id: unknown): string | undefined;
  /** Sends EOF on the server's stdin, as a host does when it shuts down. */
  closeStdin(): void;
  /** Writes one raw line (plus newline) to the server's stdin, bypassing the client (malformed input). */
  sendLine(line: string): Promise<void>;
  /**
   * The `_meta` the client put on its last request, e.g. the 2026-07-28 envelope (protocol version,
   * client info and capabilities) that a raw line in the modern era needs to be taken as that era's.
   */
  lastRequestMeta(): Record<string, unknown> | undefined;
  /**
   * Closes the client, then EOF → SIGTERM → SIGKILL until the server exits; every descendant process
   * seen while it ran that is still alive is SIGKILLed too. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Spawns `opts.command` with `opts.args` and connects an SDK client over stdio.
 * The server's environment is the SDK's host-like default set (PATH, HOME, USER, SHELL, TERM, …)
 * overlaid with `opts.env`; nothing else of the harness's environment leaks in.
 * Errors: rejects if the command cannot be spawned, or the handshake fails or takes longer than
 * `timeoutMs`; the message then ends with the server's stderr (head and tail). The process is killed.
 */
export async function connect(opts: ConnectOptions): Promise<Connection> {
  const era = opts.era ?? 'legacy';
  const grace = opts.closeGraceMs ?? 500;
  const transport = new RecordingStdioTransport({
    command: opts.command,
    args: opts.args ?? [],
    env: { ...getDefaultEnvironment(), ...opts.env },
    ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }),
  });
  const client = new Client(
    { name: 'refmcp-test-harness', version: '0.1.0' },
    {
      versionNegotiation: { mode: era === 'modern' ? { pin: MODERN_PROTOCOL_VERSION } : 'legacy' },
      ...(opts.capabilities ? { capabilities: opts.capabilities } : {}),
    },
  );
  // Transport-level errors (EPIPE after the child died) surface as failed requests; keep them quiet.
  client.onerror = () => {};
  const close = async (): Promise<void> => {
    const seen = transport.descendantsSeen();
    await transport.close(grace);
    await client.close().catch(() => {});
    await killAndWait(seen);
  };
  try {
    await client.connect(transport, { timeout: opts.timeoutMs ?? 10_000 });
  } catch (error) {
    await close();
    throw new Error(
      `${describeCommand(opts)}: connect failed: ${errorMessage(error)}${stderrTail(transport.stderr)}`,
      {
        cause: error,
      },
    );
  }
  const negotiated = client.getProtocolEra();
  return {
    client,
    era: negotiated === 'modern' ? 'modern' : 'legacy',
    protocolVersion: client.getNegotiatedProtocolVersion(),
    serverInfo: client.getServerVersion(),
    stdoutLines: () => [...transport.lines],
    nonJsonStdout: () => [...transport.nonJsonLines],
    stderr: () => transport.stderr,
    pid: transport.pid ?? -1,
    exited: transport.exited,
    exitStatus: () => transport.exitStatus,
    descendantsSeen: () => transport.descendantsSeen(),
    requestLabel: (id) => transport.requestLabel(id),
    closeStdin: () => transport.closeStdin(),
    sendLine: (line) => transport.sendRaw(line),
    lastRequestMeta: () => transport.lastMeta,
    close,
  };
}

/**
 * The launch target of a repo server's built bin (what `npx` runs): `node <repo>/servers/<name>/dist/index.js`.
 * Resolved from this module's location (src/ and the bundled dist/ both sit two levels below the repo root);
 * the file is not checked for existence — build the server first.
 */
export function serverBin(name: string): { command: string; args: string[] } {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  return { command: process.execPath, args: [`${root}servers/${name}/dist/index.js`] };
}

/** "cmd arg1 arg2" for messages. */
export function describeCommand(target: LaunchTarget): string {
  return [target.command, ...(target.args ?? [])].join(' ');
}

/** The message of any thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function stderrTail(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  if (lines.length === 0 || lines[0] === '') return '';
  // A server that refuses its configuration prints the reason first and the usage after it: keep
  // the head, which names the problem, and the tail, which shows how it ended.
  const shown =
    lines.length <= 20
      ? lines
      : [...lines.slice(0, 5), `… (${lines.length - 15} lines)`, ...lines.slice(-10)];
  return `\n--- server stderr ---\n${shown.join('\n')}`;
}

// Shared state of one checkServer run: the connections it opened (all of them are scanned for
// stdout purity and secrets at the end), the tool list, and a recorded tools/call helper.
import {
  type CallToolResult,
  type ListToolsResult,
  ProtocolError,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/client';
import { type Connection, connect, type Era, errorMessage } from '../connect.js';
import type { LaunchTarget } from '../transport.js';

/** A call the server takes a while to answer (used by ALL-04 and ALL-07). */
export interface SlowCall {
  name: string;
  arguments?: Record<string, unknown>;
}

/** Options of {@link checkServer}. */
export interface CheckServerOptions {
  /** Values that must never appear in results, errors, stderr or the audit log (ALL-03). */
  secrets?: string[];
  /**
   * Whether tools that are not annotated `readOnlyHint: true` may be called with made-up
   * arguments. Default true (meant for our servers pointed at temp dirs); the CLI defaults to false.
   */
  destructive?: boolean;
  /** A call that stays in flight for a while (seconds), for ALL-04 and ALL-07. */
  slowCall?: SlowCall;
  /** Check ids to skip, e.g. ['ALL-04']. */
  skip?: string[];
  /** Path of the server's audit log file, scanned for secrets (ALL-03). */
  auditLog?: string;
  /** Per-request timeout in milliseconds; default 10 000. */
  callTimeoutMs?: number;
  /** Spawn + handshake timeout in milliseconds; default 10 000. */
  connectTimeoutMs?: number;
}

/** One check's verdict. `details` explains failures (and notes what was skipped or observed). */
export interface CheckResult {
  id: string;
  name: string;
  ok: boolean;
  /** True when the check did not run (skipped by option or not applicable); `ok` is then true. */
  skipped?: boolean;
  details: string[];
}

/** What checkServer returns: every check, and `ok` when none failed. */
export interface CheckReport {
  ok: boolean;
  checks: CheckResult[];
  /** The server's self-reported name/version, when a connection succeeded. */
  server?: { name: string; version: string };
  /** Wall time of the whole run in milliseconds. */
  durationMs: number;
}

/** Outcome of one tools/call: a result, a JSON-RPC error from the server, or no answer (timeout, crash). */
export type CallOutcome =
  | { kind: 'result'; result: CallToolResult; text: string; ms: number }
  | { kind: 'rpc-error'; code: number; message: string; ms: number }
  | { kind: 'no-answer'; message: string; ms: number };

/** One opened connection and why it was opened. */
export interface LabelledConnection {
  label: string;
  conn: Connection;
}

/** The text of a tool result's text content items, joined by newlines. */
export function resultText(result: CallToolResult): string {
  return (result.content ?? [])
    .map((c) => (c.type === 'text' ? c.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** Short, single-line rendering of a value for details (first `max` characters). */
export function preview(value: unknown, max = 120): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const flat = JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
  return flat;
}

/** State and helpers shared by the checks of one run. */
export class CheckContext {
  readonly connections: LabelledConnection[] = [];
  readonly callTimeoutMs: number;
  private mainConn: Connection | undefined;
  private toolList: Tool[] | undefined;
  private mainCount = 0;

  constructor(
    readonly target: LaunchTarget,
    readonly opts: CheckServerOptions,
  ) {
    this.callTimeoutMs = opts.callTimeoutMs ?? 10_000;
  }

  /** Opens and records a new connection; `env` is overlaid on the target's env. */
  async open(label: string, extra: { era?: Era; env?: Record<string, string> } = {}): Promise<Connection> {
    const conn = await connect({
      ...this.target,
      env: { ...this.target.env, ...extra.env },
      era: extra.era ?? 'legacy',
      timeoutMs: this.opts.connectTimeoutMs ?? 10_000,
    });
    this.connections.push({ label, conn });
    return conn;
  }

  /** The shared legacy-era connection, reopened if the server died. */
  async main(): Promise<Connection> {
    if (this.mainConn && !this.mainConn.exitStatus()) return this.mainConn;
    this.mainCount++;
    this.mainConn = await this.open(this.mainCount === 1 ? 'main' : `main#${this.mainCount}`);
    return this.mainConn;
  }

  /** Every tool (all pages) as listed on the main connection; fetched once. */
  async tools(): Promise<Tool[]> {
    if (!this.toolList) this.toolList = await listAllTools(await this.main(), this.callTimeoutMs);
    return this.toolList;
  }

  /** Whether the options allow calling `tool` with made-up arguments. */
  mayCall(tool: Tool): boolean {
    return this.opts.destructive !== false || tool.annotations?.readOnlyHint === true;
  }

  /** tools/call on `conn`, never throwing; JSON-RPC errors and timeouts are outcomes. */
  async call(
    conn: Connection,
    name: string,
    args: Record<string, unknown>,
    timeoutMs?: number,
  ): Promise<CallOutcome> {
    return callTool(conn, name, args, timeoutMs ?? this.callTimeoutMs);
  }

  /** Closes every connection opened by this run. */
  async closeAll(): Promise<void> {
    await Promise.all(this.connections.map(({ conn }) => conn.close()));
  }
}

/** The server's advertised capabilities on a connection. */
export function capabilities(conn: Connection): ServerCapabilities {
  return conn.client.getServerCapabilities() ?? {};
}

/** tools/list, following every page (raw requests, so the SDK's own cap and caching are not involved). */
export async function listAllTools(conn: Connection, timeoutMs: number): Promise<Tool[]> {
  if (!capabilities(conn).tools) return [];
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const result = (await conn.client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      { timeout: timeoutMs },
    )) as ListToolsResult;
    tools.push(...result.tools);
    if (!result.nextCursor || result.nextCursor === cursor) break;
    cursor = result.nextCursor;
  }
  return tools;
}

/**
 * One raw tools/call (no client-side output-schema validation), classified; never throws. With
 * `waitOnProgress` the call asks for progress and each notification restarts `timeoutMs` (a call
 * waiting on the user, e.g. a sign-in in the browser, reports progress while it waits).
 */
export async function callTool(
  conn: Connection,
  name: string,
  args: Record<string, unknown>,
  timeoutMs: number,
  waitOnProgress = false,
): Promise<CallOutcome> {
  const started = Date.now();
  try {
    const result = (await conn.client.request(
      { method: 'tools/call', params: { name, arguments: args } },
      {
        timeout: timeoutMs,
        ...(waitOnProgress ? { onprogress: () => {}, resetTimeoutOnProgress: true } : {}),
      },
    )) as CallToolResult;
    return { kind: 'result', result, text: resultText(result), ms: Date.now() - started };
  } catch (error) {
    const ms = Date.now() - started;
    if (error instanceof ProtocolError)
      return { kind: 'rpc-error', code: error.code, message: error.message, ms };
    return { kind: 'no-answer', message: errorMessage(error), ms };
  }
}

/** True if the server process is running and answers a single-page tools/list within `timeoutMs`. */
export async function answersToolsList(conn: Connection, timeoutMs: number): Promise<true | string> {
  if (conn.exitStatus()) return `process exited (${describeExit(conn)})`;
  try {
    await conn.client.request({ method: 'tools/list', params: {} }, { timeout: timeoutMs });
    return true;
  } catch (error) {
    if (conn.exitStatus()) return `process exited (${describeExit(conn)})`;
    return `tools/list failed: ${errorMessage(error)}`;
  }
}

/** "code 1" / "signal SIGKILL" / "running". */
export function describeExit(conn: Connection): string {
  const exit = conn.exitStatus();
  if (!exit) return 'running';
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}

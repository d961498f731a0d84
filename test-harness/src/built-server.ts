/**
 * What every server's stdio tests share: the built bin of `servers/<name>` spawned over stdio, tool
 * calls whose `structuredContent` is checked against the tool's `outputSchema` (what a host checks),
 * and small fixtures (temp directories, loose typing of results).
 */
import { chmodSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { validateJson } from '@refmcp/shared/json-schema';
import { listAllTools, resultText } from './checks/context.js';
import { type Connection, type ConnectOptions, connect, type Era, serverBin } from './connect.js';

/** A connection to a built server, with its tool list (fetched once, all pages). */
export interface BuiltServer extends Connection {
  /** The tools as listed by `tools/list` (first call fetches, later calls reuse). */
  tools(): Promise<Tool[]>;
}

/** Options of {@link startBuiltServer}. */
export interface StartBuiltServerOptions {
  /** Environment overlaid on the host-like default set (see {@link connect}). */
  env?: Record<string, string>;
  /** Protocol era; default `legacy`. */
  era?: Era;
  /** Capabilities the client declares (see {@link connect}). */
  capabilities?: ConnectOptions['capabilities'];
  /**
   * Wraps the launch, e.g. `(bin) => ({ command: 'setpriv', args: [...flags, bin.command, ...bin.args] })`
   * to run the server as another user. Gets and returns `{ command, args }` with the server's args
   * already appended.
   */
  wrap?: (target: { command: string; args: string[] }) => { command: string; args: string[] };
  /**
   * Runs the server as this uid (and gid of the same number), e.g. 65534 (nobody), through util-linux
   * `setpriv --clear-groups`, from a copy of its `dist/` that user can reach (see
   * {@link reachableServerTarget}). Only as root; otherwise the server runs as the current user.
   */
  asUser?: number;
}

/**
 * The shared HTTP flags (`HTTP_OPTIONS` in @refmcp/shared) that switch off an API server's
 * client-side pacing, so tests do not wait a second per write or two per search.
 */
export const NO_PACING: readonly string[] = ['--write-interval', '0', '--search-interval', '0'];

/**
 * The launch target of the built bin of `servers/<server>` with `args`: `{ command: node, args:
 * [<repo>/servers/<server>/dist/index.js, ...args] }`. Errors: throws naming the missing file when
 * the server is not built (`pnpm run build`).
 */
export function builtServerTarget(server: string, args: string[] = []): { command: string; args: string[] } {
  const bin = serverBin(server);
  const entry = bin.args[0] ?? '';
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build the server first (pnpm run build)`);
  return { command: bin.command, args: [...bin.args, ...args] };
}

/** Each server's copy of `dist/` made by {@link reachableServerTarget} in this process. */
const reachableCopies = new Map<string, string>();

/**
 * {@link builtServerTarget} from a copy of the server's `dist/` (a bundle with every dependency
 * inlined) in a fresh directory under the OS temp dir, mode 0755, so that another user can run it
 * when the checkout sits in a private directory (a clone under /root or in `mktemp -d`, mode 0700:
 * "Cannot find module …/dist/index.js"), as the PostgreSQL launcher copies its binaries. One copy
 * per server per process, removed when the process exits. Errors: as {@link builtServerTarget}.
 */
export function reachableServerTarget(
  server: string,
  args: string[] = [],
): { command: string; args: string[] } {
  const entry = builtServerTarget(server).args[0] ?? '';
  let dir = reachableCopies.get(server);
  if (!dir) {
    const made = mkdtempSync(join(tmpdir(), `refmcp-${server}-dist-`));
    chmodSync(made, 0o755);
    cpSync(dirname(entry), made, { recursive: true });
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    reachableCopies.set(server, made);
    dir = made;
  }
  return { command: process.execPath, args: [join(dir, 'index.js'), ...args] };
}

/**
 * Spawns the built bin of `servers/<server>` (`dist/index.js`, what `npx` runs) with `args` over
 * stdio and connects an SDK client. Errors: throws naming the missing file when the server is not
 * built (`pnpm run build`); otherwise as {@link connect} (spawn or handshake failure, 10 s timeout).
 */
export async function startBuiltServer(
  server: string,
  args: string[] = [],
  opts: StartBuiltServerOptions = {},
): Promise<BuiltServer> {
  let target = builtServerTarget(server, args);
  if (opts.asUser !== undefined && process.getuid?.() === 0) {
    const copy = reachableServerTarget(server, args);
    target = {
      command: 'setpriv',
      args: [
        `--reuid=${opts.asUser}`,
        `--regid=${opts.asUser}`,
        '--clear-groups',
        copy.command,
        ...copy.args,
      ],
    };
  }
  const conn = await connect({
    ...(opts.wrap ? opts.wrap(target) : target),
    era: opts.era ?? 'legacy',
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.capabilities ? { capabilities: opts.capabilities } : {}),
  });
  // Fetch the tool list and compile the output schemas now, so that a test timing its first call
  // does not time them too. A server that cannot answer yet is left to its test (the list is
  // fetched again on first use).
  await listedTools(conn, PREFETCH_TIMEOUT_MS).then(
    (tools) => {
      for (const tool of tools) {
        try {
          if (tool.outputSchema) validateJson(sharedSchema(tool.outputSchema), undefined);
        } catch {
          // An unusable schema fails the call that needs it, with the validator's reason.
        }
      }
    },
    () => {},
  );
  return Object.assign(conn, { tools: () => listedTools(conn) });
}

/** How long {@link startBuiltServer} waits for the tool list before leaving it to the first call. */
const PREFETCH_TIMEOUT_MS = 5_000;

/** One object per distinct schema text: ajv caches compiled schemas by object, so each compiles once. */
const schemas = new Map<string, Record<string, unknown>>();
function sharedSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const key = JSON.stringify(schema);
  let shared = schemas.get(key);
  if (!shared) {
    shared = schema;
    schemas.set(key, shared);
  }
  return shared;
}

/** Each connection's tools as listed (fetched on first use). */
const toolLists = new WeakMap<Connection, Promise<Tool[]>>();

/** The tools listed on `conn` (every page of `tools/list`), fetched once per connection; a failed fetch rejects. */
export function listedTools(conn: Connection, timeoutMs = 20_000): Promise<Tool[]> {
  let tools = toolLists.get(conn);
  if (!tools) {
    tools = listAllTools(conn, timeoutMs);
    toolLists.set(conn, tools);
    tools.catch(() => toolLists.delete(conn));
  }
  return tools;
}

/** A tool result with its text content joined (see {@link resultText}). */
export type CheckedResult = CallToolResult & { text: string };

/**
 * Calls tool `name` with `args` on `conn` and returns the result with its `text`. A JSON-RPC error
 * (unknown tool, malformed request) or no answer within `timeoutMs` (default 60 000) rejects. A
 * successful result (not `isError`) of a tool that declares an `outputSchema` must carry
 * `structuredContent` valid against that schema, else this rejects naming the tool and the
 * problems: servers do not re-validate their own results, so every stdio test checks them here.
 */
export async function callChecked(
  conn: Connection,
  name: string,
  args: Record<string, unknown> = {},
  timeoutMs = 60_000,
): Promise<CheckedResult> {
  const result = (await conn.client.request(
    { method: 'tools/call', params: { name, arguments: args } },
    { timeout: timeoutMs },
  )) as CallToolResult;
  if (!result.isError) {
    const tool = (await listedTools(conn)).find((t) => t.name === name);
    const problems = outputProblems(tool, result);
    if (problems.length) throw new Error(`${name}: ${problems.join('; ')}`);
  }
  return Object.assign(result, { text: resultText(result) });
}

/**
 * Why `result` does not fit `tool`'s `outputSchema` ([] when it fits or the tool declares none):
 * a missing `structuredContent`, or the JSON Schema validator's messages.
 */
export function outputProblems(tool: Tool | undefined, result: CallToolResult): string[] {
  if (!tool?.outputSchema) return [];
  if (result.structuredContent === undefined)
    return ['no structuredContent although an outputSchema is declared'];
  const problems = validateJson(sharedSchema(tool.outputSchema), result.structuredContent);
  return problems.length ? [`structuredContent does not match outputSchema: ${problems.join('; ')}`] : [];
}

/**
 * {@link callChecked}, then the result's text; rejects when the result is `isError`, with the tool,
 * the arguments (first 200 characters) and the error text (first 500).
 */
export async function callOk(
  conn: Connection,
  name: string,
  args: Record<string, unknown> = {},
  timeoutMs?: number,
): Promise<string> {
  const result = await callChecked(conn, name, args, timeoutMs);
  if (result.isError)
    throw new Error(`${name} ${JSON.stringify(args).slice(0, 200)} → isError: ${result.text.slice(0, 500)}`);
  return result.text;
}

/** The `structuredContent` of a result, typed loosely for assertions. */
export function structured<T = Record<string, unknown>>(result: CallToolResult): T {
  return result.structuredContent as T;
}

/**
 * A fresh directory under the OS temp dir, as its real path (so assertions need no symlink
 * juggling), and a `cleanup` that removes it recursively.
 */
export async function tempDir(prefix = 'refmcp-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

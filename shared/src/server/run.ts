/**
 * The bootstrap every refmcp server uses: argv/env → typed config → one McpServer factory served
 * over stdio in both protocol eras (2025-11-25 `initialize` handshake and 2026-07-28 stateless
 * `server/discover`, via the SDK's `serveStdio`), with the common flags, audit log, error mapping,
 * result budget, secret scrubbing and prompt shutdown.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { McpServer, type ServerCapabilities } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { createAuditLog, type SecretSource, scrubSecrets, secretsOf } from '../audit.js';
import { unsafeBindReason } from '../transport/http/flags.js';
import { perInstanceShutdown, type ServeHttpOptions, serveHttp } from '../transport/http/serve.js';
import type { ResourceListen } from '../transport/listen.js';
import { BatchAnswers, DEFAULT_MAX_LINE_BYTES, StdinGuard } from '../transport/stdio/guard.js';
import { ListenAcks } from '../transport/stdio/listen.js';
import { coalescingWrites, escapeLineSeparatorsOn, writeJsonRpcLine } from '../transport/stdio/stdout.js';
import { DEFAULT_RESULT_BYTES, truncateUtf8, truncationMarker } from './budget.js';
import { type ConfirmPolicy, confirmCall } from './confirm.js';
import { ConfigError, describeError } from './errors.js';
import {
  COMMON_OPTIONS,
  type CommonFlags,
  checkToolsets,
  commonFlags,
  commonHelp,
  offReasons,
  selectTools,
  type ToolsetInfo,
  toolsetsHelp,
} from './flags.js';
import { serverIcons } from './icons.js';
import { commandHint } from './invocation.js';
import { createLogger, guardStdout, type Logger, scrubStderr } from './log.js';
import { memoisedInputSchema, trustedOutputSchema } from './output-schema.js';
import { type Progress, progressReporter, withHeartbeat } from './progress.js';
import { hookRequests } from './requests.js';
import { type SignIn, signInCall } from './sign-in.js';
import { errorResult, type ToolContext, type ToolDefinition, type ToolResult } from './tool.js';

/** What `configure` receives. */
export interface ConfigInput {
  values: Record<string, unknown>;
  positionals: string[];
  env: NodeJS.ProcessEnv;
  common: CommonFlags;
}

/** Everything a server tells the bootstrap about itself. */
export interface ServerSpec<C> {
  /** Short name, e.g. "filesystem"; serverInfo name is `refmcp-<name>`. */
  name: string;
  title: string;
  version: string;
  /** Usage synopsis, e.g. "mcp-server-filesystem [options] DIR [DIR…]". */
  usage: string;
  /** Help for the server's own options, printed before the common ones. */
  optionsHelp?: string;
  options?: ParseArgsConfig['options'];
  allowPositionals?: boolean;
  /** The server's toolsets, declared once with `defineToolsets`; every tool names one of them. */
  toolsets?: readonly ToolsetInfo[];
  /** Capabilities beyond tools (resources, prompts, completions, logging). */
  capabilities?: ServerCapabilities;
  /** Turns argv/env into the server's typed config; throw ConfigError for a bad one (exit 2). */
  configure(input: ConfigInput): C | Promise<C>;
  /** Every tool the server has; the bootstrap selects from them by the common flags. */
  tools(config: C): ToolDefinition[];
  /**
   * Tools this config does not serve at all (left out of `tools`), each with what turns it on, e.g.
   * `{ write_query: 'start the server with --allow-writes' }`: a call of one is answered with that
   * (still JSON-RPC -32602, as for any unknown tool), not only "not found".
   */
  offTools?(config: C): Record<string, string>;
  /** The `instructions` of `initialize`, made once at startup from the config. */
  instructions?(config: C): string;
  /** Registers resources and prompts on a new connection's server instance. */
  register?(server: McpServer, config: C, context: ConnectionContext): void;
  /**
   * HTTP mode, 2026-07-28 era: the process-wide handler of `subscriptions/listen` resource
   * subscriptions, made once at startup (the era's per-request instances are closed before a listen
   * stream opens). It decides which URIs a listen acknowledges and calls `updated(uri)` when one of
   * them changes: the update goes to every stream acknowledged for that URI
   * (transport/http/listen.ts). Without it no URI is acknowledged over HTTP. Over stdio the
   * connection's instance answers instead (ConnectionContext.serveResourceListen).
   */
  resourceListen?(config: C, context: { updated(uri: string): void; log: Logger }): ResourceListen;
  /**
   * The server's browser sign-in, when it may start without credentials (sign-in.ts): every tool
   * call passes through it before its handler runs. Called once at startup.
   */
  signIn?(config: C): SignIn | undefined;
  /** Awaited before every tool call (e.g. until the client's roots are applied). */
  ready?(config: C): Promise<void>;
  /** Credential values to scrub from every result, error and log line (called at each use: values may change, e.g. a refreshed token). */
  secrets?(config: C): string[];
  /**
   * HTTP mode. `sessionsOnly`: the server keeps per-connection state in its instances (what
   * `register` sets up, e.g. the browser's tabs), so over HTTP it serves 2025-11-25 sessions only and
   * refuses 2026-07-28 stateless requests (a fresh instance per request would lose that state) with
   * HTTP 400 and JSON-RPC -32022 naming the reason (see `sessionsOnlyRefusal`). Over stdio too (issue
   * 28): the 2026-07-28 era forbids state carried across requests, so its requests get the same
   * -32022 (`data.supported: ["2025-11-25"]`) and a client falls back to the initialize handshake.
   */
  http?: { sessionsOnly?: boolean };
  /** Releases what the config holds (pools, browsers, watchers); bounded by the shutdown budget. */
  close?(config: C): Promise<void>;
}

export interface ConnectionContext {
  log: Logger;
  /** Aborted when the server shuts down. */
  shutdown: AbortSignal;
  /**
   * Aborted when this connection's server instance closes: its session ended (HTTP DELETE, idle
   * sweep, stdin EOF), its 2026-07-28 request was answered, or the server shuts down. Per-instance
   * state set up in `register` is released here.
   */
  closed: AbortSignal;
  /** The tools served on this connection (after selection). */
  tools: readonly ToolDefinition[];
  /**
   * Hands this instance's 2026-07-28 resource subscriptions over stdio to `handler`: it decides
   * which URIs a `subscriptions/listen` acknowledges and starts their updates (see
   * transport/stdio/listen.ts). Without it no URI is acknowledged. Unused over HTTP, where
   * ServerSpec.resourceListen answers.
   */
  serveResourceListen(handler: ResourceListen): void;
}

export interface ServeOptions {
  /** Cap on text bytes in one tool result, a safety net under each tool's own budget. */
  maxResultBytes?: number;
}

/** Milliseconds the process may take to exit after stdin EOF or a signal (case ALL-04: 2 s). */
const SHUTDOWN_BUDGET_MS = 1500;

/**
 * Registers `tools` on `server`, each wrapped so that: thrown errors become `isError` results
 * with a model-facing message (no stack); text over `maxResultBytes` is cut with a marker; secret
 * values are scrubbed. (The audit line of each call is written by the tools/call hook, see
 * hookRequests, so that calls refused before a tool runs are recorded too.)
 */
export function registerTools(
  server: McpServer,
  tools: readonly ToolDefinition[],
  opts: {
    secrets: SecretSource;
    shutdown: AbortSignal;
    maxResultBytes: number;
    ready?: () => Promise<void>;
    /** Confirmation of tools that declare `confirm`; default `ask` (when the client can). */
    confirm?: ConfirmPolicy;
    /** Sign-in through the client before any handler runs while the server has no credentials. */
    signIn?: SignIn;
  },
): void {
  // Calls in flight, aborted together at shutdown. One plain controller per call, chained to the request's
  // signal by a listener: AbortSignal.any() would register every call's signal on the long-lived shutdown
  // signal (weak refs and a finalizer per call, a measurable share of a small read's CPU).
  const inFlight = new Set<AbortController>();
  opts.shutdown.addEventListener('abort', () => {
    for (const c of inFlight) c.abort(opts.shutdown.reason);
  });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: memoisedInputSchema(tool.inputSchema),
        ...(tool.outputSchema ? { outputSchema: trustedOutputSchema(tool.outputSchema) } : {}),
        annotations: { title: tool.title, ...tool.annotations },
      },
      async (args: unknown, ctx) => {
        const request = ctx.mcpReq.signal;
        // The handler's signal is made when the handler first asks for it: a new AbortSignal plus a listener on the
        // request's is a measurable share of a small call's CPU, and a small file read from memory never uses it.
        let controller: AbortController | undefined;
        let settled = false;
        const forward = () => controller?.abort(request.reason);
        let progress: { reporter: Progress | undefined } | undefined;
        const context: ToolContext = {
          server,
          get progress() {
            // No token, no reporter: nothing is allocated for the calls that asked for no progress.
            if (ctx.mcpReq._meta?.progressToken === undefined) return undefined;
            progress ??= {
              reporter: progressReporter(
                ctx.mcpReq._meta?.progressToken,
                (params) => ctx.mcpReq.notify({ method: 'notifications/progress', params }),
                // Nothing more once the call answered or the client cancelled it (work may still be winding down).
                () => settled || request.aborted,
              ),
            };
            return progress.reporter;
          },
          get signal() {
            if (!controller) {
              controller = new AbortController();
              // Asked for after the call ended (work the handler left running): unlinked, as it was by then.
              if (settled) return controller.signal;
              if (opts.shutdown.aborted) controller.abort(opts.shutdown.reason);
              else if (request.aborted) forward();
              else request.addEventListener('abort', forward, { once: true });
              inFlight.add(controller);
            }
            return controller.signal;
          },
        };
        let result: ToolResult;
        try {
          // A call the client cancels (notifications/cancelled) while it waits for the server's
          // readiness is released at once, and its handler never runs.
          const ready = opts.ready ? await untilCancelled(request, opts.ready) : true;
          if (!ready) result = CANCELLED_RESULT;
          else {
            if (opts.signIn) {
              const gate = await signInCall(
                ctx,
                opts.signIn,
                () => server.server.getClientCapabilities(),
                context.progress,
              );
              // 2026-07-28: the input-required result that asks goes out as it is.
              if (!gate.proceed && !('content' in gate.result)) return gate.result as never;
              if (!gate.proceed)
                return capText(
                  scrubResult(gate.result as ToolResult, secretsOf(opts.secrets)),
                  opts.maxResultBytes,
                );
            }
            const question = tool.confirm && (await tool.confirm(args as never));
            if (question) {
              const asked = await confirmCall(ctx, question, opts.confirm ?? 'ask', () =>
                server.server.getClientCapabilities(),
              );
              // 2026-07-28: the input-required result that asks goes out as it is (no content to cap or scrub).
              if (!asked.proceed && !('content' in asked.result)) return asked.result as never;
              if (!asked.proceed)
                return capText(
                  scrubResult(asked.result as ToolResult, secretsOf(opts.secrets)),
                  opts.maxResultBytes,
                );
            }
            const running = tool.handler(args as never, context);
            result = await (tool.heartbeat
              ? withHeartbeat(context.progress, running, (s) => `${tool.heartbeat}, ${s} s`)
              : running);
          }
        } catch (error) {
          result = errorResult(describeError(error));
        } finally {
          settled = true;
          if (controller) {
            inFlight.delete(controller);
            request.removeEventListener('abort', forward);
          }
        }
        result = capText(scrubResult(result, secretsOf(opts.secrets)), opts.maxResultBytes);
        return result;
      },
    );
  }
}

/** What a cancelled call resolves with (the SDK sends no answer to a cancelled request). */
const CANCELLED_RESULT: ToolResult = errorResult('cancelled by the client');

/** True once `work()` settles (its rejection rethrown), false as soon as `signal` aborts first. */
export async function untilCancelled(signal: AbortSignal, work: () => Promise<unknown>): Promise<boolean> {
  if (signal.aborted) return false;
  let onAbort: (() => void) | undefined;
  const cancelled = new Promise<false>((resolve) => {
    onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const running = work().then(() => true as const);
  running.catch(() => {});
  try {
    return await Promise.race([running, cancelled]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * `result` with every secret value (4 characters or more, as scrubSecrets) replaced by "[redacted]"
 * in its strings and object keys; `result` itself when none holds one. The strings are searched in
 * place: serialising every result to JSON (and parsing it back) only to look was ~2% of an API
 * server's point call, and the answer is serialised once more on its way out anyway.
 */
export function scrubResult(result: ToolResult, secrets: readonly string[]): ToolResult {
  const live = secrets.filter((s) => s.length >= 4);
  if (!live.length || !holdsSecret(result, live, 0)) return result;
  return scrubValue(result, live, 0) as ToolResult;
}

/** Nesting past which a result is scrubbed through JSON (its serialiser's own limits apply). */
const WALK_DEPTH = 64;

/** An array or a plain object (anything else, a Date say, is looked at as JSON, as it is sent). */
function plain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return Array.isArray(value) || proto === Object.prototype || proto === null;
}

function holdsSecret(value: unknown, secrets: readonly string[], depth: number): boolean {
  if (typeof value === 'string') return secrets.some((s) => value.includes(s));
  if (typeof value !== 'object' || value === null) return false;
  if (depth > WALK_DEPTH || !plain(value)) return secrets.some((s) => JSON.stringify(value).includes(s));
  if (Array.isArray(value)) return value.some((v) => holdsSecret(v, secrets, depth + 1));
  for (const key in value)
    if (
      secrets.some((s) => key.includes(s)) ||
      holdsSecret((value as Record<string, unknown>)[key], secrets, depth + 1)
    )
      return true;
  return false;
}

function scrubValue(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return scrubSecrets(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > WALK_DEPTH || !plain(value)) return JSON.parse(scrubSecrets(JSON.stringify(value), secrets));
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key in value)
    out[scrubSecrets(key, secrets)] = scrubValue((value as Record<string, unknown>)[key], secrets, depth + 1);
  return out;
}

function capText(result: ToolResult, maxBytes: number): ToolResult {
  let changed = false;
  const content = result.content.map((block) => {
    // A UTF-16 code unit is at most 3 UTF-8 bytes: short texts cannot be over, no need to measure them.
    if (block.type !== 'text' || block.text.length * 3 <= maxBytes) return block;
    const cut = truncateUtf8(block.text, maxBytes);
    if (!cut.truncated) return block;
    changed = true;
    const marker = truncationMarker(
      `${cut.omittedBytes} more bytes`,
      'narrow the request (smaller range, page or filter)',
    );
    return { ...block, text: `${cut.text}\n${marker}` };
  });
  return changed ? { ...result, content } : result;
}

/** `{ icons }` for serverInfo when the server has an icon (see icons.ts), else nothing. */
function iconsOf(name: string): { icons?: ReturnType<typeof serverIcons> } {
  const icons = serverIcons(name);
  return icons.length ? { icons } : {};
}

function withoutKeys<T extends object>(object: T, keys: string[]): T {
  return Object.fromEntries(Object.entries(object).filter(([k]) => !keys.includes(k))) as T;
}

function usageText<C>(spec: ServerSpec<C>): string {
  const toolsets = spec.toolsets ?? [];
  const sections = [
    spec.optionsHelp?.trimEnd(),
    toolsetsHelp(toolsets),
    commonHelp(toolsets.length > 0),
  ].filter(Boolean);
  return [`Usage: ${spec.usage}`, ...sections].join('\n\n');
}

/** Damerau–Levenshtein distance (adjacent swaps count 1) between `a` and `b`. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const up = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * "unknown option --readonly (did you mean --read-only?)" instead of Node's parseArgs text. The
 * suggestion is the known option spelled the same but for case, hyphens and underscores; else one
 * the typo is a prefix of; else the nearest within a few edits (one per four characters, at least
 * one: `--alow-writes`, `--db-pth`, `--toolset`). Nothing is suggested for a word unlike them all.
 */
export function unknownOptionMessage(error: Error, known: string[]): string {
  const typed = /'(-{1,2}[^']+)'/.exec(error.message)?.[1] ?? '';
  const bare = (name: string) => name.replace(/^-+/, '').replace(/[-_]/g, '').toLowerCase();
  const wanted = bare(typed.split('=')[0] ?? '');
  const nearest = () => {
    const limit = Math.max(1, Math.floor(wanted.length / 4));
    const scored = known
      .map((k) => ({ k, d: editDistance(bare(k), wanted) }))
      .filter((s) => s.d <= limit)
      .sort((x, y) => x.d - y.d);
    return scored[0]?.k;
  };
  const guess =
    known.find((k) => bare(k) === wanted) ??
    (wanted.length >= 3 ? known.find((k) => bare(k).startsWith(wanted)) : undefined) ??
    (wanted.length >= 3 ? nearest() : undefined);
  return `unknown option ${typed || '(unreadable)'}${guess ? ` (did you mean --${guess}?)` : ''}`;
}

/**
 * Node's parseArgs messages a newcomer meets, in this CLI's words: a flag given without its value
 * ("Option '--db-path <value>' argument missing") says the value is required.
 */
function parseArgsMessage(error: Error): string {
  const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(error.message);
  if (missing) return `a value is required after ${missing[1]}: ${missing[1]} VALUE`;
  return error.message;
}

/**
 * Parses argv/env into the config, or exits: --help prints the usage on stdout (0), --version the
 * version (0); a bad flag or ConfigError prints "mcp-server-NAME: <why>" and a pointer to --help
 * on stderr (2), not the whole usage, so the reason stays the one line a user sees.
 */
async function configureOrExit<C>(spec: ServerSpec<C>, argv: string[], env: NodeJS.ProcessEnv) {
  try {
    const parsed = parseArgs({
      args: argv,
      options: { ...COMMON_OPTIONS, ...spec.options },
      allowPositionals: spec.allowPositionals ?? false,
      strict: true,
    });
    const values = parsed.values as Record<string, unknown>;
    const positionals = parsed.positionals;
    if (values.help) {
      process.stdout.write(`${usageText(spec)}\n`);
      process.exit(0);
    }
    if (values.version) {
      process.stdout.write(`${spec.version}\n`);
      process.exit(0);
    }
    const common = commonFlags(values, env);
    const config = await spec.configure({ values, positionals, env, common });
    const all = spec.tools(config);
    checkToolsets(all, spec.toolsets ?? []);
    const offByConfig = spec.offTools?.(config) ?? {};
    const tools = selectTools(all, common, spec.toolsets, offByConfig);
    const off = new Map([...Object.entries(offByConfig), ...offReasons(all, tools, common)]);
    // A selection that leaves nothing (a toolset whose tools need a token not given, say) starts,
    // as hosts expect, but not silently.
    if (!tools.length && all.length)
      process.stderr.write(
        `mcp-server-${spec.name}: warn: the selected toolsets and tools serve no tool here (run with --help for what each needs)\n`,
      );
    return { config, common, tools, off };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message =
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? unknownOptionMessage(error as Error, Object.keys({ ...COMMON_OPTIONS, ...spec.options }))
        : code?.startsWith('ERR_PARSE_ARGS')
          ? parseArgsMessage(error as Error)
          : error instanceof ConfigError
            ? (error as Error).message
            : describeError(error);
    process.stderr.write(
      `mcp-server-${spec.name}: ${message}\nRun ${commandHint(`mcp-server-${spec.name}`, '--help')} for the options.\n`,
    );
    process.exit(2);
  }
}

/**
 * Resolves when everything written to `stream` has been handed to the OS. A pipe the host reads
 * slowly holds at most its buffer (64 KiB on Linux); exiting earlier cut the last answers off in
 * the middle of a JSON-RPC line. The shutdown budget still bounds the wait.
 */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  // Answers gathered for this turn's write (coalescingWrites) go now, not after a setImmediate.
  while (stream.writableCorked > 0) stream.uncork();
  if (stream.writableLength === 0 || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      if (stream.writableLength === 0 || stream.destroyed) resolve();
    };
    stream.on('drain', done);
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
}

/**
 * Runs a server over stdio until stdin closes or SIGINT/SIGTERM arrives; exits 0 within the
 * shutdown budget even with calls in flight (their results are dropped: the host has gone).
 */
export async function runServer<C>(spec: ServerSpec<C>, options: ServeOptions = {}): Promise<void> {
  guardStdout();
  escapeLineSeparatorsOn(process.stdout);
  const log = createLogger(`refmcp-${spec.name}`);
  const { config, common, tools, off } = await configureOrExit(spec, process.argv.slice(2), process.env);
  const http = common.http;
  const unsafe = http && unsafeBindReason(http);
  if (unsafe) {
    process.stderr.write(`mcp-server-${spec.name}: ${unsafe}\n`);
    process.exit(2);
  }
  // Read at each use: a credential refreshed while the server runs is scrubbed too.
  const secrets = () => [...(spec.secrets?.(config) ?? []), ...(http?.token ? [http.token] : [])];
  scrubStderr(secrets);
  const audit = createAuditLog(common.auditLog, spec.name, secrets);
  const shutdownController = new AbortController();
  const signIn = spec.signIn?.(config);
  const maxResultBytes = options.maxResultBytes ?? 4 * DEFAULT_RESULT_BYTES;

  // Over HTTP an instance is made per request or session: each gets its own shutdown signal.
  const shutdownOf = http ? perInstanceShutdown(shutdownController.signal) : () => shutdownController.signal;
  // The latest instance's handler: over stdio one instance serves the 2026-07-28 era.
  let resourceListen: ResourceListen | undefined;
  // Made once, not per instance (over HTTP's 2026-07-28 era there is one per request).
  const serverInfo = {
    name: `refmcp-${spec.name}`,
    title: spec.title,
    version: spec.version,
    ...iconsOf(spec.name),
  };
  // tools/prompts capabilities are declared by the first registration, after hookRequests has
  // hooked their handlers (declaring them here would install the SDK's handlers in the
  // constructor, before the hook).
  const capabilities = withoutKeys(spec.capabilities ?? {}, ['tools', 'prompts']);
  const instructions = spec.instructions?.(config);
  const factory = () => {
    const server = new McpServer(
      { ...serverInfo },
      { capabilities: { ...capabilities }, ...(instructions !== undefined ? { instructions } : {}) },
    );
    // Without a path the audit log drops entries: skip serialising each result to count its bytes.
    hookRequests(server, { off, ...(common.auditLog ? { audit } : {}) });
    const shutdown = shutdownOf(server);
    registerTools(server, tools, {
      secrets,
      shutdown,
      maxResultBytes,
      ready: spec.ready && (() => spec.ready?.(config) ?? Promise.resolve()),
      confirm: common.requireConfirmation ? 'require' : 'ask',
      ...(signIn ? { signIn } : {}),
    });
    const closed = new AbortController();
    const previous = server.server.onclose;
    server.server.onclose = () => {
      closed.abort();
      previous?.();
    };
    const serveResourceListen = (handler: ResourceListen) => {
      resourceListen = handler;
    };
    spec.register?.(server, config, { log, shutdown, closed: closed.signal, tools, serveResourceListen });
    return server;
  };

  // Transport errors are mostly a client's faulty request, answered already: the message, not "Internal error".
  const onerror = (error: unknown) =>
    log.error(scrubSecrets(error instanceof Error ? error.message : String(error), secrets()));
  const listen = spec.resourceListen?.bind(spec);
  const handle = http
    ? await serveHttpOrExit(spec.name, factory, http, {
        onerror,
        sessionsOnly: spec.http?.sessionsOnly,
        resourceListen: listen && ((updated) => listen(config, { updated, log })),
      })
    : serveStdioGuarded(factory, onerror, spec.http?.sessionsOnly === true, () => resourceListen);

  let stopping = false;
  const shutdown = async (why: string) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), SHUTDOWN_BUDGET_MS).unref();
    shutdownController.abort(new Error(`server shutting down (${why})`));
    await Promise.allSettled([handle.close(), spec.close?.(config), audit.close()]);
    await flushed(process.stdout);
    process.exit(0);
  };
  if (!http) {
    process.stdin.on('end', () => void shutdown('stdin closed'));
    process.stdin.on('close', () => void shutdown('stdin closed'));
    // Started by hand in a terminal (a README's "try it"): say why nothing happens. A host's stdin
    // is a pipe, so hosts never see this.
    if (process.stdin.isTTY)
      process.stderr.write(
        `mcp-server-${spec.name}: ready, waiting for an MCP host on stdin (JSON-RPC lines); Ctrl-C to quit\n`,
      );
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('unhandledRejection', (reason) =>
    log.error(`unhandled rejection: ${scrubSecrets(describeError(reason), secrets())}`),
  );
}

/**
 * stdio: malformed or oversized lines are answered by the guard; the SDK transport sees only
 * well-formed ones. `sessionsOnly`: 2026-07-28 requests are refused (ServerSpec `http.sessionsOnly`).
 * Listen acknowledgments list only the resource URIs `resourceListen()` honours (ListenAcks).
 */
function serveStdioGuarded(
  factory: () => McpServer,
  onerror: (error: unknown) => void,
  sessionsOnly: boolean,
  resourceListen: () => ResourceListen | undefined,
) {
  // Answers completing in the same turn of the event loop leave in one write (coalescingWrites).
  const coalesce = coalescingWrites(process.stdout);
  const write = (line: string) => {
    coalesce();
    return writeJsonRpcLine(line);
  };
  const guard = new StdinGuard(write, DEFAULT_MAX_LINE_BYTES, sessionsOnly);
  const transport = new StdioServerTransport(process.stdin.pipe(guard), process.stdout, {
    maxBufferSize: DEFAULT_MAX_LINE_BYTES + 1024,
  });
  // A 2025-03-26 connection's batches are answered as one array (transport/stdio/guard.ts, BatchAnswers).
  const batches = new BatchAnswers(write);
  guard.batches = batches;
  const acks = new ListenAcks(resourceListen);
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    coalesce();
    return batches.offer(message) ? Promise.resolve() : acks.send(message, send);
  };
  const handle = serveStdio(factory, { transport, onerror });
  // serveStdio has installed its inbound handler: see each message first (a cancelled listen).
  const deliver = transport.onmessage;
  transport.onmessage = (message) => {
    acks.received(message);
    deliver?.(message);
  };
  return handle;
}

/** `--transport http`: serves until shutdown; a port that cannot be bound is one stderr line and exit 2. */
async function serveHttpOrExit(
  name: string,
  factory: () => McpServer,
  config: NonNullable<CommonFlags['http']>,
  options: ServeHttpOptions,
) {
  try {
    const handle = await serveHttp(factory, config, options);
    process.stderr.write(`${JSON.stringify({ msg: 'listening', url: handle.url })}\n`);
    return handle;
  } catch (error) {
    const hint =
      (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
        ? ' (choose another --port, or --port 0 for any free one)'
        : '';
    process.stderr.write(
      `mcp-server-${name}: cannot listen on ${config.host}:${config.port}: ${describeError(error)}${hint}\n`,
    );
    process.exit(2);
  }
}

/**
 * Argument completion (MCP spec 2025-11-25, "Completion": `completion/complete`) for every resource
 * template variable and prompt argument a server declares, built once here:
 * - bounded: at most {@link MAX_COMPLETION_VALUES} values (the spec's cap), with `total` and
 *   `hasMore` as the spec defines them (more than sent: `hasMore: true`; `total` when known);
 * - fast: each answer is cut off after {@link completionTimeoutMs} (its work's signal aborted) and
 *   is then empty rather than late; an answer is cached briefly ({@link COMPLETION_CACHE_MS}), so
 *   that keystrokes asking again do not call an upstream API again;
 * - quiet: a completer that throws answers empty (completions are hints, never errors).
 * Fencing by the operator's scope is each completer's job: it offers only what a call could reach.
 *
 * The server's `completion/complete` handler is this module's, installed (and the `completions`
 * capability declared) only when a server registers at least one completer; the SDK's
 * `completable()` schemas and template `complete` callbacks are not used (its handler reports a
 * capped list's own length as `total`).
 */
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';

const invalidParams = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

/** What a completer is asked. */
export interface CompletionQuery {
  /** The argument's value typed so far. */
  value: string;
  /** Other arguments of the same prompt or template already chosen (the request's `context.arguments`). */
  arguments: Readonly<Record<string, string>>;
  /** Aborted at the cut-off, when the client cancels, or at shutdown: stop upstream work then. */
  signal: AbortSignal;
}

/** A completer's answer: the values (best first), and when there are more, how many or that there are. */
export interface Completion {
  values: readonly string[];
  /** All matches, when known (may exceed the values given). */
  total?: number;
  /** More matches exist than `values` holds. */
  hasMore?: boolean;
}

/** Completes one argument: an answer, or the plain list of matches (all of them; the cap is applied here). */
export type Completer = (
  query: CompletionQuery,
) => Completion | readonly string[] | Promise<Completion | readonly string[]>;

/** The spec's cap on values in one completion answer (2025-11-25, "Completion": "maximum 100 items"). */
export const MAX_COMPLETION_VALUES = 100;
/** Default cut-off of one completion, in milliseconds (env MCP_COMPLETION_TIMEOUT_MS overrides). */
export const COMPLETION_TIMEOUT_MS = 2000;
/** How long an answer is reused for the same question, in milliseconds. */
export const COMPLETION_CACHE_MS = 15_000;
/** Answers kept per cache (oldest dropped first). */
const CACHE_ENTRIES = 500;
/** Longest value completed; a longer one answers empty (a hostile client's megabyte prefix). */
const MAX_VALUE_CHARS = 1024;
/** Longest question (value, argument and context) whose answer is cached: the cache stays small. */
const MAX_KEY_CHARS = 8192;

/** The cut-off from `env.MCP_COMPLETION_TIMEOUT_MS` (a positive integer), else the default. */
export function completionTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.MCP_COMPLETION_TIMEOUT_MS);
  return Number.isInteger(n) && n > 0 ? n : COMPLETION_TIMEOUT_MS;
}

const EMPTY = { values: [] as string[], hasMore: false };

/**
 * The candidates that start with `value` (case-insensitively; else, when none does, those that
 * contain it), de-duplicated, in the order given, as an answer: at most 100 values, `total` the
 * number of matches.
 */
export function completeFrom(candidates: Iterable<string>, value: string): Completion {
  const wanted = value.toLowerCase();
  const unique = [...new Set(candidates)];
  let matches = unique.filter((c) => c.toLowerCase().startsWith(wanted));
  if (!matches.length && wanted) matches = unique.filter((c) => c.toLowerCase().includes(wanted));
  return {
    values: matches.slice(0, MAX_COMPLETION_VALUES),
    total: matches.length,
    hasMore: matches.length > MAX_COMPLETION_VALUES,
  };
}

/** The answer on the wire: strings only, unique, at most 100, `total`/`hasMore` consistent with them. */
export function boundCompletion(answer: Completion | readonly string[]): {
  values: string[];
  total?: number;
  hasMore: boolean;
} {
  const given = Array.isArray(answer) ? (answer as readonly string[]) : (answer as Completion).values;
  const all = [...new Set(given.filter((v): v is string => typeof v === 'string'))];
  const values = all.slice(0, MAX_COMPLETION_VALUES);
  const claimed = Array.isArray(answer) ? undefined : (answer as Completion);
  const total = Math.max(claimed?.total ?? all.length, all.length);
  const hasMore = claimed?.hasMore === true || total > values.length;
  return { values, ...(claimed?.total !== undefined || Array.isArray(answer) ? { total } : {}), hasMore };
}

/**
 * Answers reused for a while, across the server instances of one process (an HTTP server makes one
 * per session or request): make one per server config and pass it to every {@link registerCompletions}.
 */
export class CompletionCache {
  private readonly answers = new Map<string, { at: number; answer: ReturnType<typeof boundCompletion> }>();
  constructor(
    readonly ttlMs = COMPLETION_CACHE_MS,
    readonly timeoutMs = completionTimeoutMs(),
  ) {}

  get(key: string): ReturnType<typeof boundCompletion> | undefined {
    const hit = this.answers.get(key);
    if (!hit) return undefined;
    if (Date.now() - hit.at > this.ttlMs) {
      this.answers.delete(key);
      return undefined;
    }
    return hit.answer;
  }

  set(key: string, answer: ReturnType<typeof boundCompletion>): void {
    this.answers.delete(key);
    this.answers.set(key, { at: Date.now(), answer });
    if (this.answers.size > CACHE_ENTRIES) {
      const oldest = this.answers.keys().next().value;
      if (oldest !== undefined) this.answers.delete(oldest);
    }
  }
}

const caches = new WeakMap<object, CompletionCache>();

/** The one CompletionCache of `owner` (e.g. a server's config), made on first use. */
export function completionCacheFor(owner: object): CompletionCache {
  let cache = caches.get(owner);
  if (!cache) {
    cache = new CompletionCache();
    caches.set(owner, cache);
  }
  return cache;
}

/** Completers by prompt name and by resource template (its URI template, as listed), then by argument. */
export interface CompletionSet {
  prompts?: Record<string, Record<string, Completer>>;
  templates?: Record<string, Record<string, Completer>>;
  /** Fixed resource URIs: completion on them is valid and empty (they have no variables). */
  resources?: readonly string[];
}

export interface CompletionOptions {
  /** Shared across instances (see {@link completionCacheFor}); default: one per server instance. */
  cache?: CompletionCache;
  /** Told why a completion answered empty (an error or the cut-off); never the client. */
  onError?: (message: string) => void;
}

interface Registry {
  prompts: Map<string, Record<string, Completer>>;
  templates: Map<string, Record<string, Completer>>;
  resources: Set<string>;
  cache: CompletionCache;
  onError?: (message: string) => void;
  installed: boolean;
}

const registries = new WeakMap<McpServer, Registry>();

/** Whether `set` gives any argument a completer. */
const hasCompleters = (r: Registry) =>
  [...r.prompts.values(), ...r.templates.values()].some((args) => Object.keys(args).length > 0);

/**
 * Adds `set` to `server`'s completions (callable several times: resources, then prompts). Every
 * prompt and template the server declares should be named, with `{}` when none of its arguments
 * completes, so that completion on it is answered empty rather than refused. The handler and the
 * `completions` capability are installed once the first completer is added (before the server
 * connects). Refusals (JSON-RPC -32602): an unknown prompt or resource template.
 */
export function registerCompletions(
  server: McpServer,
  set: CompletionSet,
  options: CompletionOptions = {},
): void {
  let registry = registries.get(server);
  if (!registry) {
    registry = {
      prompts: new Map(),
      templates: new Map(),
      resources: new Set(),
      cache: options.cache ?? new CompletionCache(),
      installed: false,
    };
    registries.set(server, registry);
  }
  if (options.cache) registry.cache = options.cache;
  if (options.onError) registry.onError = options.onError;
  for (const [name, args] of Object.entries(set.prompts ?? {}))
    registry.prompts.set(name, { ...registry.prompts.get(name), ...args });
  for (const [uri, args] of Object.entries(set.templates ?? {}))
    registry.templates.set(uri, { ...registry.templates.get(uri), ...args });
  for (const uri of set.resources ?? []) registry.resources.add(uri);
  if (!registry.installed && hasCompleters(registry)) install(server, registry);
}

/** Whether `server` answers completion/complete (some completer is registered). */
export function hasCompletions(server: McpServer): boolean {
  return registries.get(server)?.installed === true;
}

interface CompleteParams {
  ref: { type: string; name?: string; uri?: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

function install(server: McpServer, registry: Registry): void {
  registry.installed = true;
  server.server.registerCapabilities({ completions: {} });
  server.server.setRequestHandler('completion/complete', async (request, ctx: ServerContext) => {
    const params = request.params as CompleteParams;
    const completer = completerFor(registry, params);
    if (!completer) return { completion: EMPTY };
    const value = params.argument.value;
    if (value.length > MAX_VALUE_CHARS) return { completion: EMPTY };
    const context = params.context?.arguments ?? {};
    const key = JSON.stringify([params.ref, params.argument.name, value, context]);
    const cacheable = key.length <= MAX_KEY_CHARS;
    const cached = cacheable ? registry.cache.get(key) : undefined;
    if (cached) return { completion: cached };
    const answer = await answerWithin(completer, value, context, registry, ctx.mcpReq?.signal);
    if (answer && cacheable) registry.cache.set(key, answer);
    return { completion: answer ?? EMPTY };
  });
}

function completerFor(registry: Registry, params: CompleteParams): Completer | undefined {
  const { ref, argument } = params;
  if (ref.type === 'ref/prompt') {
    const args = registry.prompts.get(ref.name ?? '');
    if (!args) throw invalidParams(`Prompt ${ref.name} not found`);
    return Object.hasOwn(args, argument.name) ? args[argument.name] : undefined;
  }
  if (ref.type === 'ref/resource') {
    const args = registry.templates.get(ref.uri ?? '');
    if (!args) {
      if (registry.resources.has(ref.uri ?? '')) return undefined;
      throw invalidParams(`Resource template ${ref.uri} not found`);
    }
    return Object.hasOwn(args, argument.name) ? args[argument.name] : undefined;
  }
  throw invalidParams(`Invalid completion reference type: ${ref.type}`);
}

/**
 * The completer's bounded answer, or undefined when it threw or did not answer within the cut-off
 * (its signal is then aborted). `request` is the client's request signal (cancellation).
 */
async function answerWithin(
  completer: Completer,
  value: string,
  context: Record<string, string>,
  registry: Registry,
  request: AbortSignal | undefined,
): Promise<ReturnType<typeof boundCompletion> | undefined> {
  const controller = new AbortController();
  const forward = () => controller.abort(request?.reason);
  request?.addEventListener('abort', forward, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const cutOff = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      registry.onError?.(`completion cut off after ${registry.cache.timeoutMs} ms`);
      controller.abort(new Error('completion cut off'));
      resolve(undefined);
    }, registry.cache.timeoutMs);
    controller.signal.addEventListener('abort', () => resolve(undefined), { once: true });
  });
  try {
    const work = Promise.resolve()
      .then(() => completer({ value, arguments: context, signal: controller.signal }))
      .then(boundCompletion);
    work.catch(() => {});
    return await Promise.race([work, cutOff]);
  } catch (error) {
    registry.onError?.(`completion failed: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  } finally {
    clearTimeout(timer);
    request?.removeEventListener('abort', forward);
    if (!controller.signal.aborted) controller.abort(new Error('completion answered'));
  }
}

/**
 * A declarative resource set: a server declares its fixed resources, resource templates, a list
 * function (one page, or pages behind a cursor), a read function and, optionally, subscriptions; the
 * set registers `resources/list`, `resources/templates/list`, `resources/read` (and
 * `resources/subscribe` / `resources/unsubscribe`) and the `resources` capability, and owns:
 * - the cursor contract (MCP spec 2025-11-25, "Pagination"; case ALL-05): a list with a cursor
 *   schema issues `nextCursor` from the position its page function returns and refuses, with
 *   JSON-RPC -32602, any cursor that does not decode to such a position; a single-page list (and
 *   `resources/templates/list`, always one page) refuses every cursor;
 * - the protocol-error mapping: a read that finds nothing (or a ResourceNotFoundError a server
 *   throws) → "Resource not found" with `data.uri`, coded per the connection's protocol version:
 *   -32002 up to 2025-11-25 (spec 2025-11-25, Resources, "Error Handling"), -32602 from 2026-07-28
 *   (SEP-2164, which moved it to Invalid Params); a ProtocolError thrown by the server (bad URI, refused request: see
 *   {@link invalidParams}, {@link parseResourceUri}) passes through; anything else → -32603
 *   InternalError with {@link describeError}'s message; every message with the set's secrets
 *   replaced by `[redacted]`.
 * Completion of template variables is completion.ts's: each template's `complete` completers (and
 * the fixed resources, which complete to nothing) are registered there.
 */
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
  ResourceNotFoundError,
  ResourceTemplate,
  type ResourceTemplateType,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { type SecretSource, scrubSecrets, secretsOf } from '../audit.js';
import { decodeCursor, encodeCursor } from './budget.js';
import { type Completer, type CompletionOptions, registerCompletions } from './completion.js';
import { describeError } from './errors.js';

/** A resource template as resources/templates/list shows it, plus completion of its variables. */
export type ResourceTemplateSpec = ResourceTemplateType & {
  /** Completion per template variable (see completion.ts), fenced by the operator's scope. */
  complete?: Record<string, Completer>;
};

/** One page of resources/list: the resources, and where the next page starts (none: last page). */
export interface ResourcePage<P> {
  resources: Resource[];
  next?: P;
}

/** The listing part of a set: a page function and, for more than one page, the cursor's shape. */
export interface ResourceList<P extends Record<string, unknown>> {
  /**
   * Schema of the position a cursor carries. Without it the list is one page, `page` must not
   * return `next`, and every cursor is refused.
   */
  cursor?: z.ZodType<P>;
  /** The page starting after `after` (undefined: the first page). */
  page(after: P | undefined, ctx: ServerContext): ResourcePage<P> | Promise<ResourcePage<P>>;
}

/** Everything a server declares about its resources. */
export interface ResourceSet<P extends Record<string, unknown> = Record<string, unknown>> {
  /** Resources with fixed URIs, listed (as given) first on the first page of resources/list. */
  resources?: readonly Resource[];
  /** Templates, listed as given (minus `complete`) in one page of resources/templates/list. */
  templates?: readonly ResourceTemplateSpec[];
  /** The rest of resources/list (after the fixed resources). */
  list?: ResourceList<P>;
  /**
   * The contents of `uri` (as the client sent it), or undefined when there is no such resource.
   * Throw a ProtocolError for a URI or request the server refuses (see {@link invalidParams}).
   */
  read(uri: string, ctx: ServerContext): Promise<ReadResourceResult | undefined>;
  /** resources/subscribe and /unsubscribe (capability `subscribe`); throw a ProtocolError to refuse. */
  subscriptions?: {
    subscribe(uri: string, ctx: ServerContext): Promise<void>;
    unsubscribe?(uri: string, ctx: ServerContext): Promise<void>;
  };
  /** Whether the server sends notifications/resources/list_changed (capability; default false). */
  listChanged?: boolean;
  /** Values never shown in an error message (tokens, passwords); a function is read at each error. */
  secrets?: SecretSource;
  /** The completions' cache (shared across instances) and error sink; see completion.ts. */
  completion?: CompletionOptions;
}

/** A JSON-RPC -32602 (Invalid params) error: the URI or request is refused, `message` says why. */
export function invalidParams(message: string, data?: unknown): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, data);
}

/** `uri` as a URL; -32602 "Resource URI … is invalid" (the SDK's own wording) when it is not one. */
export function parseResourceUri(uri: string): URL {
  try {
    return new URL(uri);
  } catch {
    throw invalidParams(`Resource URI ${uri} is invalid`, { uri, reason: 'invalid_uri' });
  }
}

/** Registers `set`'s resources/* handlers and capability on `server` (before it connects). */
export function registerResourceSet<P extends Record<string, unknown>>(
  server: McpServer,
  set: ResourceSet<P>,
): void {
  const low = server.server;
  // Declared before the SDK registry below, which otherwise defaults listChanged to true.
  low.registerCapabilities({
    resources: {
      ...(set.subscriptions ? { subscribe: true } : {}),
      listChanged: set.listChanged ?? false,
    },
  });
  const fixed = set.resources ?? [];
  const templates = set.templates ?? [];
  registerWithSdk(server, fixed, templates, set.read);
  registerCompletions(
    server,
    {
      templates: Object.fromEntries(templates.map((t) => [t.uriTemplate, t.complete ?? {}])),
      resources: fixed.map((r) => r.uri),
    },
    set.completion,
  );

  const secrets = set.secrets;
  const handle =
    <R, A extends unknown[]>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        // Upstream text (a file, a name) may hold a credential: results are scrubbed like tool results.
        return scrubbed(await fn(...args), secretsOf(secrets));
      } catch (error) {
        throw toProtocolError(notFoundForEra(error, low.getNegotiatedProtocolVersion()), secretsOf(secrets));
      }
    };

  low.setRequestHandler(
    'resources/list',
    handle(async (request, ctx) => {
      const cursor = request.params?.cursor;
      const after = readListCursor(set.list?.cursor, cursor);
      const page = set.list ? await set.list.page(after, ctx) : { resources: [] };
      if (page.next !== undefined && !set.list?.cursor)
        throw new Error('resources/list: a single-page list returned a next position');
      return {
        resources: after === undefined ? [...fixed, ...page.resources] : page.resources,
        ...(page.next !== undefined ? { nextCursor: encodeCursor(page.next) } : {}),
      };
    }),
  );

  const listed = templates.map(({ complete: _, ...template }) => template);
  low.setRequestHandler(
    'resources/templates/list',
    handle(async (request) => {
      refuseCursor('resources/templates/list', request.params?.cursor);
      return { resourceTemplates: listed };
    }),
  );

  const recode = legacyNotFoundCodes(low);
  low.setRequestHandler('resources/read', async (request, ctx) => {
    try {
      return await handle(async () => {
        const uri = request.params.uri;
        const result = await set.read(uri, ctx);
        if (!result) throw new ResourceNotFoundError(uri);
        return result;
      })();
    } catch (error) {
      if (error instanceof ProtocolError && error.code === RESOURCE_NOT_FOUND_2025 && ctx.mcpReq)
        recode.add(ctx.mcpReq.id);
      throw error;
    }
  });

  const subscriptions = set.subscriptions;
  if (subscriptions) {
    low.setRequestHandler(
      'resources/subscribe',
      handle(async (request, ctx) => {
        await subscriptions.subscribe(request.params.uri, ctx);
        return {};
      }),
    );
    low.setRequestHandler(
      'resources/unsubscribe',
      handle(async (request, ctx) => {
        await subscriptions.unsubscribe?.(request.params.uri, ctx);
        return {};
      }),
    );
  }
}

/** The position in a resources/list cursor; undefined for none. -32602 for one the set never issued. */
function readListCursor<P extends Record<string, unknown>>(
  schema: z.ZodType<P> | undefined,
  cursor: string | undefined,
): P | undefined {
  if (cursor === undefined) return undefined;
  if (!schema) refuseCursor('resources/list', cursor);
  let state: unknown;
  try {
    state = decodeCursor(cursor);
  } catch {
    state = undefined;
  }
  const parsed = schema?.safeParse(state);
  if (!parsed?.success)
    throw invalidParams('Invalid cursor for resources/list: pass nextCursor from the previous page');
  return parsed.data;
}

function refuseCursor(method: string, cursor: unknown): void {
  if (cursor !== undefined) throw invalidParams(`Invalid cursor: ${method} has a single page`);
}

/** `value` with every secret replaced by "[redacted]" (a copy only when one occurs). */
function scrubbed<T>(value: T, secrets: readonly string[]): T {
  if (!secrets.length) return value;
  const json = JSON.stringify(value);
  return secrets.some((s) => s.length >= 4 && json.includes(s))
    ? (JSON.parse(scrubSecrets(json, secrets)) as T)
    : value;
}

/** The JSON-RPC error a failed resources/* request answers with, secrets scrubbed. */
/** The "Resource not found" code up to 2025-11-25 (spec 2025-11-25, Resources, "Error Handling"). */
export const RESOURCE_NOT_FOUND_2025 = -32002;

/**
 * `error`, with a ResourceNotFoundError (the SDK codes it -32602, as SEP-2164 has it from
 * 2026-07-28) recoded -32002 for a connection negotiated at 2025-11-25 or earlier, where the spec
 * names that code. `version` is the connection's negotiated protocol version.
 */
export function notFoundForEra(error: unknown, version: string | undefined): unknown {
  if (!(error instanceof ResourceNotFoundError)) return error;
  if (version !== undefined && version >= '2026-07-28') return error;
  return new ProtocolError(RESOURCE_NOT_FOUND_2025, error.message, error.data);
}

/**
 * The request ids whose -32602 error answer is to go out as -32002: the SDK's wire codecs turn
 * -32002 into -32602 in every era (its reading of SEP-2164), so the not-found of a 2025-era read
 * is recoded on its way out, by wrapping the transport `low` connects to. Only the answers to the
 * ids added here are touched; an id is forgotten once its answer is sent.
 */
function legacyNotFoundCodes(low: McpServer['server']): Set<string | number> {
  const ids = new Set<string | number>();
  const connect = low.connect.bind(low);
  low.connect = (transport) => {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if ('error' in message && 'id' in message && ids.delete(message.id as string | number))
        return send({ ...message, error: { ...message.error, code: RESOURCE_NOT_FOUND_2025 } }, options);
      return send(message, options);
    };
    return connect(transport);
  };
  return ids;
}

function toProtocolError(error: unknown, secrets: readonly string[]): ProtocolError {
  const protocol =
    error instanceof ProtocolError
      ? error
      : new ProtocolError(ProtocolErrorCode.InternalError, describeError(error));
  if (!secrets.length) return protocol;
  const message = scrubSecrets(protocol.message, secrets);
  const data =
    protocol.data === undefined
      ? undefined
      : JSON.parse(scrubSecrets(JSON.stringify(protocol.data), secrets));
  if (message === protocol.message && JSON.stringify(data) === JSON.stringify(protocol.data)) return protocol;
  return new ProtocolError(protocol.code, message, data);
}

/**
 * Registers the fixed resources and templates in McpServer's own registry (its resources/* handlers
 * are replaced by the set's, so the callbacks below only delegate; completion is completion.ts's).
 */
function registerWithSdk(
  server: McpServer,
  fixed: readonly Resource[],
  templates: readonly ResourceTemplateSpec[],
  read: (uri: string, ctx: ServerContext) => Promise<ReadResourceResult | undefined>,
): void {
  const delegate = async (uri: URL, ctx: ServerContext) =>
    (await read(uri.href, ctx)) ?? Promise.reject(new ResourceNotFoundError(uri.href));
  for (const { uri, name, ...metadata } of fixed) {
    server.registerResource(name, uri, metadata, delegate);
  }
  for (const { name, uriTemplate, complete: _, ...metadata } of templates) {
    const template = new ResourceTemplate(uriTemplate, { list: undefined });
    server.registerResource(name, template, metadata, (uri, _variables, ctx) => delegate(uri, ctx));
  }
}

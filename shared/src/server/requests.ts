import {
  type CallToolResult,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import type { AuditLog } from '../audit.js';
import { refreshCodeCache } from '../launch/refresh.js';

/** List methods the SDK answers in one page: it never issues a cursor for them. */
const SINGLE_PAGE_LISTS = new Set(['tools/list', 'prompts/list']);

type Handler = (request: RequestLike, ctx: unknown) => unknown;
interface RequestLike {
  params?: { cursor?: unknown; name?: unknown; arguments?: unknown };
}

/**
 * Hooks the SDK's own request handlers, which McpServer installs when the first tool or prompt is
 * registered (so call this before registering any):
 * - `tools/list` and `prompts/list` refuse a cursor with JSON-RPC -32602 (Invalid params). The SDK
 *   returns every tool and prompt in one page and so never issues a cursor; it ignores one it is
 *   given, which would hand a client that follows a stale or forged cursor page one again (MCP spec
 *   2025-11-25, "Pagination": servers SHOULD reject invalid cursors with -32602; case ALL-05).
 * - `tools/call` of a tool this configuration turned off (`off`: name → what turns it on) is
 *   refused as the SDK refuses any unknown tool (JSON-RPC -32602 "Tool X not found"), with the
 *   reason appended, e.g. "…: start the server with --allow-writes".
 * - `tools/call` writes one audit line per call when `audit` is given — every call, including those
 *   the SDK refuses before a tool runs (invalid arguments, unknown or hidden tools).
 * - The first `tools/list` answered lets a first start save its code cache again (launch/refresh.ts).
 * - A request whose params the SDK's schema for its method refuses (tools/list with a numeric
 *   cursor, resources/read with a numeric uri) is answered -32602 Invalid params, as the SDK does
 *   for tools/call; the SDK throws a plain Error there, which goes out as -32603 Internal error.
 */
export function hookRequests(
  server: McpServer,
  opts: { audit?: AuditLog; off?: ReadonlyMap<string, string> } = {},
): void {
  const low = server.server;
  refusedParamsAsInvalidParams(low);
  const setRequestHandler = low.setRequestHandler.bind(low) as (method: string, handler: unknown) => void;
  (low as { setRequestHandler: unknown }).setRequestHandler = (method: string, handler: unknown) => {
    if (typeof handler !== 'function') return setRequestHandler(method, handler);
    if (method === 'tools/list')
      return setRequestHandler(method, refreshingCodeCache(refusingCursors(method, handler as Handler)));
    if (SINGLE_PAGE_LISTS.has(method))
      return setRequestHandler(method, refusingCursors(method, handler as Handler));
    if (method === 'tools/call') {
      const call = opts.off?.size ? namingOffTools(handler as Handler, opts.off) : (handler as Handler);
      return setRequestHandler(method, opts.audit ? audited(call, opts.audit) : call);
    }
    return setRequestHandler(method, handler);
  };
}

/**
 * Whether `error` is the SDK's refusal of a request's params: for spec methods other than
 * tools/call it validates the request with its wire schema and throws a plain Error whose message
 * is zod's issue list (a JSON array of issues, each with a path under "params").
 */
function isParamsRefusal(error: unknown): error is Error {
  if (!(error instanceof Error) || error.constructor !== Error || !error.message.startsWith('['))
    return false;
  try {
    const issues = JSON.parse(error.message) as unknown;
    return (
      Array.isArray(issues) &&
      issues.length > 0 &&
      issues.every(
        (i) =>
          Array.isArray((i as { path?: unknown })?.path) && (i as { path: unknown[] }).path[0] === 'params',
      )
    );
  } catch {
    return false;
  }
}

/**
 * Wraps every request handler the low-level server holds, and every one it is given later (the
 * constructor installs some before any hook can run), so that the SDK's params refusal goes out as
 * -32602. tools/call is left alone: the SDK already answers its refusal with -32602.
 */
function refusedParamsAsInvalidParams(low: McpServer['server']): void {
  const handlers = (low as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) return;
  const map = handlers as Map<string, Handler>;
  const set = map.set.bind(map);
  const wrap = (method: string, handler: Handler): Handler =>
    method === 'tools/call'
      ? handler
      : async (request, ctx) => {
          try {
            return await handler(request, ctx);
          } catch (error) {
            if (!isParamsRefusal(error)) throw error;
            throw new ProtocolError(
              ProtocolErrorCode.InvalidParams,
              `Invalid ${method} request: ${error.message}`,
            );
          }
        };
  map.set = (method, handler) => set(method, wrap(method, handler));
  for (const [method, handler] of [...map]) set(method, wrap(method, handler));
}

function namingOffTools(handler: Handler, off: ReadonlyMap<string, string>): Handler {
  return async (request, ctx) => {
    try {
      return await handler(request, ctx);
    } catch (error) {
      const name = request.params?.name;
      const why = typeof name === 'string' ? off.get(name) : undefined;
      if (!why || !(error instanceof ProtocolError) || error.code !== ProtocolErrorCode.InvalidParams)
        throw error;
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${error.message}: it is off here; ${why}`);
    }
  };
}

function refusingCursors(method: string, handler: Handler): Handler {
  return (request, ctx) => {
    if (request.params?.cursor !== undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid cursor for ${method}: this server returns the whole list in one page and issued no cursor`,
      );
    }
    return handler(request, ctx);
  };
}

/** `handler`, letting a first start save its code cache again once an answer is ready. */
function refreshingCodeCache(handler: Handler): Handler {
  return (request, ctx) => {
    const answer = handler(request, ctx);
    void Promise.resolve(answer).then(refreshCodeCache, () => {});
    return answer;
  };
}

function audited(handler: Handler, audit: AuditLog): Handler {
  return async (request, ctx) => {
    const started = performance.now();
    const entry = { tool: String(request.params?.name ?? ''), arguments: request.params?.arguments ?? {} };
    try {
      const result = (await handler(request, ctx)) as CallToolResult;
      const first = result.content?.[0];
      // Cancelled by the client (notifications/cancelled): no answer was sent, whatever the result.
      const cancelled = (ctx as { mcpReq?: { signal?: AbortSignal } } | undefined)?.mcpReq?.signal?.aborted;
      audit.record({
        ...entry,
        outcome: cancelled ? 'cancelled' : result.isError ? 'error' : 'ok',
        ...(result.isError && !cancelled && first?.type === 'text'
          ? { error: first.text.slice(0, 500) }
          : {}),
        durationMs: performance.now() - started,
        resultBytes: Buffer.byteLength(JSON.stringify(result)),
      });
      return result;
    } catch (error) {
      // A protocol error (unknown tool, malformed request): the client gets a JSON-RPC error.
      const message = error instanceof Error ? error.message : String(error);
      audit.record({
        ...entry,
        outcome: 'error',
        error: message.slice(0, 500),
        durationMs: performance.now() - started,
        resultBytes: 0,
      });
      throw error;
    }
  };
}

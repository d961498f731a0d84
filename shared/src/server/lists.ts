import { type McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** List methods the SDK answers in one page: it never issues a cursor for them. */
const SINGLE_PAGE_LISTS = new Set(['tools/list', 'prompts/list']);

/**
 * Makes `tools/list` and `prompts/list` refuse a cursor with JSON-RPC -32602 (Invalid params).
 * The SDK returns every tool and prompt in one page and so never issues a cursor; it ignores one it
 * is given, which would hand a client that follows a stale or forged cursor page one again (MCP
 * spec 2025-11-25, "Pagination": servers SHOULD reject invalid cursors with -32602; case ALL-05).
 * Call before registering tools and prompts.
 */
export function refuseUnissuedCursors(server: McpServer): void {
  const low = server.server;
  const setRequestHandler = low.setRequestHandler.bind(low) as (method: string, handler: unknown) => void;
  (low as { setRequestHandler: unknown }).setRequestHandler = (method: string, handler: unknown) => {
    if (!SINGLE_PAGE_LISTS.has(method) || typeof handler !== 'function')
      return setRequestHandler(method, handler);
    return setRequestHandler(method, (request: { params?: { cursor?: unknown } }, ctx: unknown) => {
      if (request.params?.cursor !== undefined) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Invalid cursor for ${method}: this server returns the whole list in one page and issued no cursor`,
        );
      }
      return (handler as (r: unknown, c: unknown) => unknown)(request, ctx);
    });
  };
}

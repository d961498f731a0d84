/**
 * CORS for browser-based hosts (issue 28 item 7): a page whose origin the operator listed in
 * MCP_HTTP_ALLOWED_ORIGINS may call `/mcp` from a browser. Its preflight (`OPTIONS /mcp`) is
 * answered, and every `/mcp` response to it carries `Access-Control-Allow-Origin` (the origin
 * echoed, never `*`), `Access-Control-Expose-Headers` (so the page can read `Mcp-Session-Id`,
 * `WWW-Authenticate` and `MCP-Protocol-Version`) and `Vary: Origin`. Any other origin — the
 * loopback ones admitted by default included — gets no CORS header at all, so a browser keeps
 * refusing it; the DNS-rebinding 403 still answers a foreign origin as before.
 *
 * Hand-rolled (the `cors` middleware is connect-shaped, and these responses are web-standard): the
 * rules are the Fetch standard's CORS protocol (https://fetch.spec.whatwg.org/#http-cors-protocol).
 */
import { validateOriginHeader } from '@modelcontextprotocol/server';

/** Methods a page may use on `/mcp` (spec 2025-11-25 transports: POST, GET stream, DELETE). */
export const CORS_ALLOWED_METHODS = 'GET, POST, DELETE';

/**
 * Request headers a page may send: the MCP transport's own (session, protocol version, resumption,
 * and the 2026-07-28 `Mcp-Method`/`Mcp-Name` routing headers), auth (bearer, DPoP) and content type.
 * `Mcp-Param-*` headers (2026-07-28) are admitted by prefix: a preflight naming one gets it echoed.
 */
const ALLOWED_REQUEST_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'dpop',
  'last-event-id',
  'mcp-method',
  'mcp-name',
  'mcp-protocol-version',
  'mcp-session-id',
];
const PARAM_HEADER = /^mcp-param-[a-z0-9-]+$/;

/** Response headers a page may read. */
const EXPOSED_HEADERS = 'Mcp-Session-Id, WWW-Authenticate, MCP-Protocol-Version';

/** How long (seconds) a browser may cache a preflight answer. */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * The CORS headers for a response to a request from `origin` (the `Origin` header's value, or
 * null), or undefined when `origin` is absent or not among `allowedOrigins` (the operator's
 * MCP_HTTP_ALLOWED_ORIGINS entries: host names, or `scheme://*` for a non-web scheme).
 */
export function corsHeaders(
  origin: string | null | undefined,
  allowedOrigins: readonly string[],
): Record<string, string> | undefined {
  if (!origin || allowedOrigins.length === 0) return undefined;
  const checked = validateOriginHeader(origin, [...allowedOrigins]);
  if (!checked.ok) return undefined;
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
    Vary: 'Origin',
  };
}

/**
 * The answer to a CORS preflight (`OPTIONS /mcp`) from an allowed origin: 204 with the allowed
 * methods and request headers (the fixed list plus any `Mcp-Param-*` the preflight asked for; a
 * header outside both is left out, so the browser refuses the actual request) and a max age.
 * `requested` is the preflight's `Access-Control-Request-Headers` value.
 */
export function preflightResponse(cors: Record<string, string>, requested: string | null): Response {
  const asked = (requested ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => PARAM_HEADER.test(h));
  return new Response(null, {
    status: 204,
    headers: {
      ...cors,
      'Access-Control-Allow-Methods': CORS_ALLOWED_METHODS,
      'Access-Control-Allow-Headers': [...ALLOWED_REQUEST_HEADERS, ...new Set(asked)].join(', '),
      'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
    },
  });
}

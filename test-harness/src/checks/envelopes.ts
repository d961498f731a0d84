// ALL-09 every request gets exactly one answer: malformed envelopes of many shapes, each with an
// id, each answered by one JSON-RPC error carrying that id — in both protocol eras.
// ALL-10 U+2028 / U+2029 never reach stdout raw: requests that get echoed (ids, tool names,
// arguments) carry them, and every stdout line of every connection of the run is scanned.
import type { Connection } from '../connect.js';
import type { CheckContext, CheckResult } from './context.js';
import { preview } from './context.js';
import { sessionsOnlyRefusal } from './eras.js';

/** One malformed envelope: what it is (for details) and the message without its id. */
export interface Envelope {
  what: string;
  message: Record<string, unknown>;
  /** The JSON-RPC error codes a server may answer with (any error code when absent). */
  codes?: number[];
}

const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;

/**
 * Requests no server can serve: params that are not an object, a method that is not a string or
 * is missing, members JSON-RPC does not have, a `_meta` that is not an object, tools/call params of
 * the wrong shape. Each is a class, not one input: several values of each.
 */
export function malformedEnvelopes(): Envelope[] {
  const bad = (what: string, message: Record<string, unknown>, codes?: number[]): Envelope => ({
    what,
    message: { jsonrpc: '2.0', ...message },
    ...(codes ? { codes } : {}),
  });
  const paramsNotObject = ['x', '', 5, 0, true, false, null, [], [1, 'a'], [{}]];
  const methodNotString = [7, null, true, {}, ['tools/list']];
  const metaNotObject = [5, 'x', null, [], true];
  return [
    ...paramsNotObject.flatMap((params) => [
      bad(`tools/call params ${JSON.stringify(params)}`, { method: 'tools/call', params }, [INVALID_PARAMS]),
      bad(`ping params ${JSON.stringify(params)}`, { method: 'ping', params }, [INVALID_PARAMS]),
      bad(`tools/list params ${JSON.stringify(params)}`, { method: 'tools/list', params }, [INVALID_PARAMS]),
    ]),
    ...methodNotString.map((method) =>
      bad(`method ${JSON.stringify(method)}`, { method, params: {} }, [INVALID_REQUEST]),
    ),
    bad('no method, no result, no error', {}, [INVALID_REQUEST]),
    bad('no method, params only', { params: {} }, [INVALID_REQUEST]),
    bad('a member JSON-RPC does not have', { method: 'ping', params: {}, extra: 1 }, [INVALID_REQUEST]),
    ...metaNotObject.map((meta) =>
      bad(`ping _meta ${JSON.stringify(meta)}`, { method: 'ping', params: { _meta: meta } }, [
        INVALID_PARAMS,
      ]),
    ),
    bad('tools/call without params', { method: 'tools/call' }, [INVALID_PARAMS]),
    bad('tools/call name a number', { method: 'tools/call', params: { name: 5 } }, [INVALID_PARAMS]),
    bad('tools/call name missing', { method: 'tools/call', params: { arguments: {} } }, [INVALID_PARAMS]),
    bad('tools/call arguments a string', { method: 'tools/call', params: { name: 'x', arguments: 'a' } }, [
      INVALID_PARAMS,
      METHOD_NOT_FOUND,
    ]),
    bad('tools/call arguments an array', { method: 'tools/call', params: { name: 'x', arguments: [1] } }, [
      INVALID_PARAMS,
      METHOD_NOT_FOUND,
    ]),
    bad('tools/list cursor a number', { method: 'tools/list', params: { cursor: 5 } }, [INVALID_PARAMS]),
    bad('unknown method', { method: 'no/such/method', params: {} }, [METHOD_NOT_FOUND]),
  ];
}

/**
 * `message` with the client's own `_meta` (the modern era's envelope claim) merged into object
 * params that have no `_meta` of their own, so that each envelope is taken as the connection's era
 * and the fault is only the planted one.
 */
function withEnvelope(message: Record<string, unknown>, conn: Connection): Record<string, unknown> {
  const meta = conn.lastRequestMeta();
  const { params } = message;
  if (!meta || !params || typeof params !== 'object' || Array.isArray(params) || '_meta' in params)
    return message;
  return { ...message, params: { ...params, _meta: meta } };
}

/** A JSON-RPC response read off raw stdout. */
interface RawAnswer {
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

/** The parsed stdout lines of `conn` that answer an id in `ids` (by JSON of the id). */
function answersTo(conn: Connection, ids: Set<string>): Map<string, RawAnswer[]> {
  const found = new Map<string, RawAnswer[]>();
  for (const line of conn.stdoutLines()) {
    let message: RawAnswer;
    try {
      message = JSON.parse(line) as RawAnswer;
    } catch {
      continue;
    }
    if (!message || typeof message !== 'object' || !('id' in message)) continue;
    const key = JSON.stringify(message.id);
    if (!ids.has(key)) continue;
    found.set(key, [...(found.get(key) ?? []), message]);
  }
  return found;
}

/** How long without a new answer ends the wait for the rest, in milliseconds. */
const QUIET_MS = 1000;

/**
 * Sends each line, then waits until every id has an answer, or `timeoutMs` passed, or no new answer
 * came for {@link QUIET_MS} (a server that drops requests would otherwise cost the whole timeout);
 * then a little longer to catch a second answer. Returns the answers by JSON of the id.
 */
async function sendAndCollect(
  conn: Connection,
  lines: { id: string; line: string }[],
  timeoutMs: number,
): Promise<Map<string, RawAnswer[]>> {
  const ids = new Set(lines.map((l) => JSON.stringify(l.id)));
  for (const { line } of lines) await conn.sendLine(line);
  const deadline = Date.now() + timeoutMs;
  let answers = answersTo(conn, ids);
  let lastNew = Date.now();
  while (answers.size < ids.size && Date.now() < deadline && Date.now() - lastNew < QUIET_MS) {
    if (conn.exitStatus()) break;
    await new Promise((r) => setTimeout(r, 50));
    const now = answersTo(conn, ids);
    if (now.size > answers.size) lastNew = Date.now();
    answers = now;
  }
  // A duplicate answer would follow the first closely: give it a moment to show.
  await new Promise((r) => setTimeout(r, 200));
  return answersTo(conn, ids);
}

/** ALL-09: every malformed envelope with an id gets exactly one JSON-RPC error with that id, both eras. */
export async function checkEveryRequestAnswered(ctx: CheckContext): Promise<CheckResult> {
  const base = { id: 'ALL-09', name: 'every request gets exactly one answer' };
  const failures: string[] = [];
  const summary: string[] = [];
  const envelopes = malformedEnvelopes();
  for (const era of ['legacy', 'modern'] as const) {
    let conn: Awaited<ReturnType<CheckContext['open']>>;
    try {
      conn = await ctx.open(`malformed envelopes (${era})`, { era });
    } catch (error) {
      const sessionsOnly = era === 'modern' ? sessionsOnlyRefusal(error) : undefined;
      if (!sessionsOnly) throw error;
      summary.push(`[${era}] ${sessionsOnly}`);
      continue;
    }
    await conn.client
      .request({ method: 'tools/list', params: {} }, { timeout: ctx.callTimeoutMs })
      .catch(() => {});
    const lines = envelopes.map((e, i) => {
      const id = `malformed-${era}-${i}`;
      return { id, line: JSON.stringify({ ...withEnvelope(e.message, conn), id }), envelope: e };
    });
    const answers = await sendAndCollect(conn, lines, ctx.callTimeoutMs);
    const unanswered = lines.filter(({ id }) => !answers.has(JSON.stringify(id))).length;
    if (unanswered > 0) summary.push(`[${era}] ${unanswered} of ${lines.length} request(s) got no answer`);
    for (const { id, envelope } of lines) {
      const got = answers.get(JSON.stringify(id)) ?? [];
      const label = `[${era}] ${envelope.what}`;
      if (got.length === 0) {
        failures.push(`${label}: no answer (the client would wait on id ${preview(id)} forever)`);
        continue;
      }
      if (got.length > 1) failures.push(`${label}: ${got.length} answers to one request`);
      const first = got[0] as RawAnswer;
      const code = first.error?.code;
      if (!first.error) failures.push(`${label}: answered with a result, not an error`);
      else if (typeof code !== 'number' || !Number.isInteger(code))
        failures.push(`${label}: error without an integer code`);
      else if (envelope.codes && !envelope.codes.includes(code))
        failures.push(`${label}: error ${code}, expected ${envelope.codes.join(' or ')}`);
    }
    if (conn.exitStatus()) failures.push(`[${era}] server exited during the malformed envelopes`);
  }
  return {
    ...base,
    ok: failures.length === 0,
    details: [
      ...summary,
      ...failures.slice(0, 30),
      ...(failures.length > 30 ? [`… and ${failures.length - 30} more`] : []),
      `${envelopes.length} malformed envelope(s) per era`,
    ],
  };
}

/** Raw U+2028 / U+2029 in a stdout line (they end a line for Node ≥ 24's readline and others). */
export const RAW_LINE_SEPARATOR = /[\u2028\u2029]/;

/**
 * ALL-10 part 1: requests whose answers echo what they carry: string ids and an unknown tool's name
 * holding U+2028 / U+2029. Part 2 is {@link lineSeparatorVerdict} over every connection.
 */
export async function exerciseLineSeparators(ctx: CheckContext): Promise<void> {
  const conn = await ctx.open('line separators');
  const requests = [
    { id: 'ls-\u2028-ping', method: 'ping' },
    { id: 'ls-\u2029-malformed', method: 'tools/call', params: [] },
    {
      id: 'ls-unknown-tool',
      method: 'tools/call',
      params: { name: 'no_such_tool\u2028\u2029', arguments: { text: 'a\u2028b\u2029c' } },
    },
  ];
  const lines = requests.map((r) => ({ id: r.id, line: JSON.stringify({ jsonrpc: '2.0', ...r }) }));
  await sendAndCollect(conn, lines, ctx.callTimeoutMs);
  // Each read-only tool with its first string argument holding them (results and errors often echo it).
  for (const tool of await ctx.tools()) {
    if (tool.annotations?.readOnlyHint !== true) continue;
    const props = (tool.inputSchema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
    const key = Object.keys(props).find((k) => props[k]?.type === 'string');
    if (key) await ctx.call(conn, tool.name, { [key]: 'sep\u2028ar\u2029ator' });
  }
}

/** ALL-10 verdict: no stdout line of any connection of the run holds a raw U+2028 / U+2029. */
export function lineSeparatorVerdict(ctx: CheckContext): CheckResult {
  const failures: string[] = [];
  let lines = 0;
  for (const { label, conn } of ctx.connections) {
    for (const line of conn.stdoutLines()) {
      lines++;
      if (RAW_LINE_SEPARATOR.test(line))
        failures.push(`[${label}] stdout line holds a raw U+2028/U+2029: ${preview(line)}`);
    }
  }
  return {
    id: 'ALL-10',
    name: 'U+2028/U+2029 escaped on stdout',
    ok: failures.length === 0,
    details: [
      ...failures.slice(0, 20),
      ...(failures.length > 20 ? [`… and ${failures.length - 20} more`] : []),
      `${lines} stdout line(s) over ${ctx.connections.length} connection(s) scanned`,
    ],
  };
}

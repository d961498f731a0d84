/**
 * A guard between stdin and the SDK's stdio transport. The SDK drops what it cannot parse without
 * an answer (a client then waits forever on that id) and closes the connection on a line over its
 * buffer limit (losing every call in flight). JSON-RPC 2.0 (§5, "Response object"; §4.1 for ids)
 * says a server answers malformed input with an error; MCP's stdio transport frames one message
 * per line and has no batches since 2025-06-18. So each line is checked here first:
 * - over `maxLineBytes` → -32600 "request too large" (the line is discarded as it streams in);
 * - not JSON → -32700 Parse error;
 * - a JSON array (a batch) → -32600, except on a connection whose `initialize` asked for 2025-03-26
 *   or 2024-11-05, versions whose JSON-RPC batches a server MUST accept (spec 2025-03-26, Transports:
 *   "MUST support receiving JSON-RPC batches"): each member is checked as a line of its own and
 *   passed on, and the answers go out together as one array (BatchAnswers), refusals included;
 * - not a JSON-RPC 2.0 object, or an id that is not a string or integer → -32600;
 * - a request (it has an `id` and is not a response) that the SDK's own JSON-RPC message schema
 *   rejects — the SDK would log it and drop it — → -32602 when `method` is a string (the params are
 *   the fault: not an object, an array, null, a `_meta` that is not an object…), else -32600 (no
 *   `method`, a `method` that is not a string, members JSON-RPC does not have);
 * - on a connection whose first request opened the 2026-07-28 era (its `_meta` names that protocol
 *   version), every later request must name a supported version too: one naming another
 *   (`2099-01-01`) → -32022 UnsupportedProtocolVersion with `data.supported`, one naming none →
 *   -32602 (spec 2026-07-28: every request carries the version; the SDK checks only the first);
 * and everything else passes through unchanged, one line at a time. A malformed message without
 * an id (a notification) or with `result`/`error` (a response to one of our requests: answering
 * it would put an id of our own id space on the wire) cannot be answered and passes on to the SDK.
 */
import { Transform, type TransformCallback } from 'node:stream';
import {
  PROTOCOL_VERSION_META_KEY,
  parseJSONRPCMessage,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/server';

/** The stateless-era protocol versions this SDK serves (the SDK exports no list of them). */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'];

/** Largest message accepted, in bytes (UTF-8, one line). */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

type Id = string | number | null;

/** Best-effort request id from the start of a line too large or too broken to parse whole. */
function sniffId(head: string): Id {
  const m = /"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,16})\s*[,}]/.exec(head);
  if (!m?.[1]) return null;
  return m[1].startsWith('"') ? (JSON.parse(m[1]) as string) : Number(m[1]);
}

function errorLine(id: Id, code: number, message: string, data?: unknown): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } })}\n`;
}

/** The protocol version a request's `_meta` claims, or undefined. */
function claimedVersion(message: Record<string, unknown>): unknown {
  const params = message.params as { _meta?: Record<string, unknown> } | undefined;
  const meta = params?._meta;
  return meta && typeof meta === 'object' ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
}

/**
 * Per-connection era check (see the module comment): `era` is what the first request opened;
 * returns the refusal of a later request in the 2026-07-28 era that claims no supported version.
 */
export class EraCheck {
  era: 'unknown' | 'legacy' | 'modern' = 'unknown';
  /** The client's initialize asked for a version with JSON-RPC batches (2025-03-26 or older). */
  batches = false;

  /**
   * `sessionsOnly`: the server keeps per-connection state in its instance (the browser's tabs and
   * element refs), which the stateless 2026-07-28 era forbids carrying across requests; as over
   * HTTP, every request of that era is refused with -32022 and `data.supported: ["2025-11-25"]`,
   * so that a client falls back to the initialize handshake.
   */
  constructor(private readonly sessionsOnly = false) {}

  check(line: string): string | undefined {
    if (this.era === 'legacy' && !line.includes('"initialize"')) return undefined;
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return undefined;
    }
    const id = message.id;
    if ((typeof id !== 'string' && typeof id !== 'number') || typeof message.method !== 'string')
      return undefined;
    if (message.method === 'initialize') {
      const asked = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      this.batches = typeof asked === 'string' && asked <= '2025-03-26';
    }
    if (this.era === 'legacy') return undefined;
    const claim = claimedVersion(message);
    if (this.sessionsOnly && claim !== undefined) {
      const requested = String(claim).slice(0, 100);
      return errorLine(
        id,
        -32022,
        `Unsupported protocol version: ${requested}. This server keeps per-session state (one server instance per connection) and serves sessions only: connect with the 2025-11-25 initialize handshake.`,
        { supported: ['2025-11-25'], requested },
      );
    }
    if (this.era === 'unknown') {
      if (typeof claim === 'string' && MODERN_PROTOCOL_VERSIONS.includes(claim)) this.era = 'modern';
      else if (claim === undefined) this.era = 'legacy';
      return undefined; // the SDK answers an opening request with an unsupported claim itself
    }
    if (typeof claim === 'string' && MODERN_PROTOCOL_VERSIONS.includes(claim)) return undefined;
    if (claim === undefined)
      return errorLine(
        id,
        -32602,
        `Invalid _meta envelope: _meta["${PROTOCOL_VERSION_META_KEY}"] is required on every request of protocol revision 2026-07-28`,
      );
    const error = new UnsupportedProtocolVersionError({
      supported: [...MODERN_PROTOCOL_VERSIONS],
      requested: String(claim).slice(0, 100),
    });
    return errorLine(id, error.code, error.message, error.data);
  }
}

/** The error to answer `line` with, or undefined when it is a well-formed JSON-RPC 2.0 message. */
export function checkLine(line: string): string | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return errorLine(sniffId(line.slice(0, 4096)), -32700, 'Parse error: the line is not valid JSON');
  }
  if (Array.isArray(message)) {
    return errorLine(
      null,
      -32600,
      'Invalid Request: batches are not supported (MCP removed JSON-RPC batching in 2025-06-18)',
    );
  }
  if (!message || typeof message !== 'object')
    return errorLine(null, -32600, 'Invalid Request: not a JSON-RPC object');
  const { jsonrpc, id } = message as { jsonrpc?: unknown; id?: unknown };
  const validId =
    id === undefined || typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
  if (!validId) return errorLine(null, -32600, 'Invalid Request: id must be a string or an integer');
  if (jsonrpc !== '2.0') {
    return errorLine((id as Id | undefined) ?? null, -32600, 'Invalid Request: "jsonrpc" must be "2.0"');
  }
  if (id === undefined || 'result' in message || 'error' in message) return undefined;
  return unservableRequest(message as Record<string, unknown>, id as string | number);
}

/** Members a JSON-RPC 2.0 request has (§4). */
const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * The error for a request the SDK cannot take (its message schema refuses it), else undefined.
 * The SDK validates the envelope with the same schema before dispatch (about 2 µs a message).
 */
function unservableRequest(message: Record<string, unknown>, id: string | number): string | undefined {
  try {
    parseJSONRPCMessage(message);
    return undefined;
  } catch {
    // Refused: say which part, below. (zod's own issues for a union name no useful path.)
  }
  const { method, params } = message;
  if (typeof method !== 'string') return errorLine(id, -32600, 'Invalid Request: "method" must be a string');
  const extra = Object.keys(message).filter((k) => !REQUEST_MEMBERS.has(k));
  if (extra.length > 0) {
    const names = extra.map((k) => JSON.stringify(k)).join(', ');
    return errorLine(id, -32600, `Invalid Request: a request has no member ${names}`);
  }
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    const got = params === null ? 'null' : Array.isArray(params) ? 'an array' : typeof params;
    return errorLine(
      id,
      -32602,
      `Invalid params for ${method.slice(0, 100)}: "params" must be an object (got ${got})`,
    );
  }
  const meta = (params as { _meta?: unknown })._meta;
  const why =
    meta !== undefined && (meta === null || typeof meta !== 'object' || Array.isArray(meta))
      ? '"params._meta" must be an object'
      : 'not a valid request params object';
  return errorLine(id, -32602, `Invalid params for ${method.slice(0, 100)}: ${why}`);
}

/**
 * A Transform from raw stdin to checked, newline-terminated JSON-RPC lines. Answers to refused
 * lines are written with `reply` (stdout); each is one whole line, so they never interleave with
 * the transport's own writes.
 */
export class StdinGuard extends Transform {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Head of a line being discarded for its size (for the id), and its size so far. */
  #oversized: { head: string; bytes: number } | undefined;
  readonly #era: EraCheck;
  /** Gathers the answers to a batch's members (set by the bootstrap, which wraps the transport). */
  batches: BatchAnswers | undefined;

  /** `sessionsOnly`: refuse the 2026-07-28 era ({@link EraCheck}). */
  constructor(
    private readonly reply: (line: string) => void,
    private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
    sessionsOnly = false,
  ) {
    super();
    this.#era = new EraCheck(sessionsOnly);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.#take(chunk.subarray(start, nl));
      this.#endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.#take(chunk.subarray(start));
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.#pendingBytes > 0 || this.#oversized) this.#endLine();
    done();
  }

  #take(part: Buffer): void {
    if (this.#oversized) {
      this.#oversized.bytes += part.length;
      return;
    }
    this.#pending.push(part);
    this.#pendingBytes += part.length;
    if (this.#pendingBytes > this.maxLineBytes) {
      const head = Buffer.concat(this.#pending).subarray(0, 4096).toString('utf8');
      this.#oversized = { head, bytes: this.#pendingBytes };
      this.#pending = [];
      this.#pendingBytes = 0;
    }
  }

  #endLine(): void {
    if (this.#oversized) {
      const { head, bytes } = this.#oversized;
      this.#oversized = undefined;
      this.reply(
        errorLine(
          sniffId(head),
          -32600,
          `Invalid Request: message of ${bytes} bytes is over the ${this.maxLineBytes}-byte limit`,
        ),
      );
      return;
    }
    const line = Buffer.concat(this.#pending).toString('utf8').trim();
    this.#pending = [];
    this.#pendingBytes = 0;
    if (!line) return;
    if (this.#era.batches && this.batches && line.startsWith('[')) {
      this.#batch(line);
      return;
    }
    const refusal = checkLine(line) ?? this.#era.check(line);
    if (refusal) this.reply(refusal);
    else this.push(`${line}\n`);
  }

  /** A batch on a 2025-03-26 connection: members checked and passed on one by one, answers gathered. */
  #batch(line: string): void {
    let members: unknown;
    try {
      members = JSON.parse(line);
    } catch {
      this.reply(errorLine(null, -32700, 'Parse error: the line is not valid JSON'));
      return;
    }
    if (!Array.isArray(members) || members.length === 0) {
      this.reply(errorLine(null, -32600, 'Invalid Request: an empty batch'));
      return;
    }
    const refused: unknown[] = [];
    const passed: string[] = [];
    const ids: (string | number)[] = [];
    for (const member of members) {
      const text = JSON.stringify(member);
      const refusal = checkLine(text) ?? this.#era.check(text);
      if (refusal) refused.push(JSON.parse(refusal));
      else {
        passed.push(text);
        const { id, method } = member as { id?: unknown; method?: unknown };
        if ((typeof id === 'string' || typeof id === 'number') && typeof method === 'string') ids.push(id);
      }
    }
    this.batches?.open(ids, refused);
    for (const text of passed) this.push(`${text}\n`);
  }
}

/**
 * The answers to the requests of JSON-RPC batches (2025-03-26 connections), sent as one array once
 * every request of the batch is answered (JSON-RPC 2.0 §6); a batch of notifications only gets no
 * answer, one whose members were all refused gets the refusals at once. The transport's `send` is
 * routed through {@link offer}, which holds the answers that belong to an open batch.
 */
export class BatchAnswers {
  readonly #open: { waiting: Set<string | number>; answers: unknown[] }[] = [];

  constructor(private readonly write: (line: string) => void) {}

  /** A batch whose requests have `ids`, with answers already known (`refused`). */
  open(ids: (string | number)[], refused: unknown[]): void {
    if (ids.length === 0) {
      if (refused.length) this.write(`${JSON.stringify(refused)}\n`);
      return;
    }
    this.#open.push({ waiting: new Set(ids), answers: [...refused] });
  }

  /** True when `message` is an answer held for a batch (the batch is written once complete). */
  offer(message: unknown): boolean {
    const { id } = message as { id?: unknown };
    if (!message || typeof message !== 'object' || !('result' in message || 'error' in message)) return false;
    const index = this.#open.findIndex((b) => b.waiting.has(id as string | number));
    const batch = this.#open[index];
    if (!batch) return false;
    batch.waiting.delete(id as string | number);
    batch.answers.push(message);
    if (batch.waiting.size === 0) {
      this.#open.splice(index, 1);
      this.write(`${JSON.stringify(batch.answers)}\n`);
    }
    return true;
  }
}

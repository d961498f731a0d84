/**
 * Audit log: one JSON line per tool call, appended to a file (`--audit-log PATH` or env
 * `MCP_AUDIT_LOG`), never stdout. Secrets are redacted by key name and by value; large values are
 * summarised so one log line stays small.
 *
 * Line shape: {"time": ISO-8601, "server", "tool", "arguments", "outcome": "ok"|"error"|"cancelled",
 *              "error"?: string, "durationMs": number, "resultBytes": number}
 */
import { createWriteStream, type WriteStream } from 'node:fs';

export interface AuditEntry {
  tool: string;
  arguments: unknown;
  /** `cancelled`: the client cancelled the call (notifications/cancelled); it got no answer. */
  outcome: 'ok' | 'error' | 'cancelled';
  error?: string;
  /** Wall time of the call in milliseconds. */
  durationMs: number;
  /** UTF-8 bytes of the serialised result. */
  resultBytes: number;
}

export interface AuditLog {
  record(entry: AuditEntry): void;
  /** Flushes and closes the file; resolves when written. */
  close(): Promise<void>;
}

/** Argument keys whose values are always replaced by "[redacted]". */
const SECRET_KEY =
  /(token|secret|password|passwd|pwd|authorization|api[-_]?key|cookie|credential|private[-_]?key)/i;
/** Strings longer than this (characters) are summarised as "<N chars: first 64…>". */
const MAX_LOGGED_STRING = 256;
/** Arrays longer than this are cut, with a count of the rest. */
const MAX_LOGGED_ITEMS = 20;

/**
 * Secret values to scrub: a fixed list, or a function read at each use (for credentials that
 * change while the server runs, e.g. an OAuth access token refreshed every hour).
 */
export type SecretSource = readonly string[] | (() => readonly string[]);

/** The values of `source` now. */
export function secretsOf(source: SecretSource | undefined): readonly string[] {
  return typeof source === 'function' ? source() : (source ?? []);
}

/** Replace every occurrence of each secret value in `text` with "[redacted]". */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}

/**
 * A copy of `value` safe to log: secret keys redacted, long strings and arrays summarised, and
 * anything nested deeper than 5 levels (arrays or objects) replaced by a marker, so that a deeply
 * nested argument cannot overflow the stack.
 */
export function summariseForLog(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.length > MAX_LOGGED_STRING ? `<${value.length} chars: ${value.slice(0, 64)}…>` : value;
  }
  if (Array.isArray(value)) {
    if (depth > 4) return '<nested array>';
    const kept = value.slice(0, MAX_LOGGED_ITEMS).map((v) => summariseForLog(v, depth + 1));
    if (value.length > MAX_LOGGED_ITEMS) kept.push(`<${value.length - MAX_LOGGED_ITEMS} more items>`);
    return kept;
  }
  if (value && typeof value === 'object') {
    if (depth > 4) return '<nested object>';
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = SECRET_KEY.test(key) ? '[redacted]' : summariseForLog(v, depth + 1);
    }
    return out;
  }
  return value;
}

/**
 * Opens the audit log at `path` (appending, mode 0600) for `server`; with no path, a log that
 * drops entries. `secrets` are scrubbed from every line. Write errors go to stderr once and never
 * fail a tool call.
 */
export function createAuditLog(
  path: string | undefined,
  server: string,
  secrets: SecretSource = [],
): AuditLog {
  if (!path) return { record() {}, close: async () => {} };
  let stream: WriteStream | undefined = createWriteStream(path, { flags: 'a', mode: 0o600 });
  stream.on('error', (error) => {
    process.stderr.write(`[${server}] audit log ${path} unavailable: ${error.message}\n`);
    stream = undefined;
  });
  return {
    record(entry) {
      const line = JSON.stringify({
        time: new Date().toISOString(),
        server,
        tool: entry.tool,
        arguments: summariseForLog(entry.arguments),
        outcome: entry.outcome,
        ...(entry.error === undefined ? {} : { error: entry.error }),
        durationMs: Math.round(entry.durationMs * 10) / 10,
        resultBytes: entry.resultBytes,
      });
      stream?.write(`${scrubSecrets(line, secretsOf(secrets))}\n`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!stream) return resolve();
        stream.end(resolve);
      }),
  };
}

/** stderr logging: stdout carries JSON-RPC only (MCP spec, stdio transport). */
import { redactCredentials } from '../upstream/errors.js';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A logger writing "[name] level: message" lines to stderr; debug lines only with MCP_DEBUG=1. */
export function createLogger(name: string): Logger {
  const write = (level: string, message: string) => process.stderr.write(`[${name}] ${level}: ${message}\n`);
  return {
    info: (m) => write('info', m),
    warn: (m) => write('warn', m),
    error: (m) => write('error', m),
  };
}

/**
 * Route console.log/info/debug/table to stderr, so a dependency that logs with console.log can
 * never corrupt the JSON-RPC stream on stdout (case ALL-01: a server printing "credentials loaded"
 * to stdout broke its hosts).
 */
export function guardStdout(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.table = toStderr;
  console.dir = toStderr;
}

/**
 * Scrubs the values of `secrets()` (read at each write, so a refreshed token is included) and
 * unmistakable credentials (shared `redactCredentials`: bearer headers, `"access_token": "…"`
 * fields, vendor token shapes; prose like "no token configured" is kept) from everything written to process.stderr: the server's own lines and a
 * dependency's debug output alike (case ALL-03; google-auth-library logs the token endpoint's
 * answer under GOOGLE_SDK_NODE_LOGGING before the new token is in any secret list).
 */
export function scrubStderr(secrets: () => readonly string[]): void {
  const write = process.stderr.write.bind(process.stderr) as (...args: unknown[]) => boolean;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const scrubbed = redactCredentials(text, secrets());
      if (scrubbed !== text) return write(scrubbed, ...rest);
    }
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
}

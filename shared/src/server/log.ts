/** stderr logging: stdout carries JSON-RPC only (MCP spec, stdio transport). */

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

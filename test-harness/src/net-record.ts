/**
 * Records every outgoing TCP connection a spawned server opens, so that a test can prove that no
 * request leaves loopback — whatever HTTP stack the server's vendor SDK brings (fetch/undici,
 * axios, http.request all end in `net.Socket#connect`). The server gets a preload through
 * `NODE_OPTIONS=--import`, which appends one JSON line per connection (`{host, port}`) to a file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The preload: wraps `net.Socket.prototype.connect`, recording host and port before connecting. */
const PRELOAD = `import net from 'node:net';
import { appendFileSync } from 'node:fs';
const log = process.env.REFMCP_CONNECTION_LOG;
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const o = Array.isArray(args[0]) ? args[0][0] : args[0];
  const target = o && typeof o === 'object' ? o : { port: o, host: typeof args[1] === 'string' ? args[1] : undefined };
  if (log) appendFileSync(log, JSON.stringify({ host: target.path ? 'unix:' + target.path : (target.host ?? 'localhost'), port: target.port ?? null }) + '\\n');
  return connect.apply(this, args);
};
`;

/** One recorded connection: host (or `unix:<path>`) and port. */
export interface RecordedConnection {
  host: string;
  port: number | string | null;
}

/** A connection recorder: `env` for the server's launch, `connections()` to read what it opened. */
export interface ConnectionRecorder {
  /** Environment to add to the server's launch (NODE_OPTIONS with the preload, the log path). */
  env: Record<string, string>;
  /** Every connection recorded so far. */
  connections(): RecordedConnection[];
  /** The recorded connections whose host is not loopback (127.0.0.0/8, ::1, localhost, unix sockets). */
  offLoopback(): RecordedConnection[];
}

/** True for 127.0.0.0/8, ::1, localhost and unix sockets. */
export function isLoopbackTarget(host: string): boolean {
  return (
    host.startsWith('unix:') ||
    host === 'localhost' ||
    host === '::1' ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    /^::ffff:127\./.test(host)
  );
}

/** Writes the preload into `dir` and returns a recorder over a log file there. */
export function recordConnections(dir: string): ConnectionRecorder {
  const preload = join(dir, 'record-connections.mjs');
  const log = join(dir, 'connections.jsonl');
  writeFileSync(preload, PRELOAD);
  writeFileSync(log, '');
  const inherited = process.env.NODE_OPTIONS ? `${process.env.NODE_OPTIONS} ` : '';
  const connections = (): RecordedConnection[] =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RecordedConnection);
  return {
    env: {
      NODE_OPTIONS: `${inherited}--import ${pathToFileURL(preload).href}`,
      REFMCP_CONNECTION_LOG: log,
    },
    connections,
    offLoopback: () => connections().filter((c) => !isLoopbackTarget(c.host)),
  };
}

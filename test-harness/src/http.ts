/**
 * Driving a built server's `--transport http` mode (issue 19) as an HTTP host does: start it on an
 * ephemeral loopback port, connect the SDK's Streamable HTTP client in either era, or send one raw
 * request (so `Host`, `Origin` and malformed bodies can be set by hand).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { Client, type ClientCapabilities, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Era, MODERN_PROTOCOL_VERSION, serverBin } from './connect.js';

/** A built server serving HTTP, started by {@link startHttpServer}. */
export interface HttpServer {
  /** The MCP endpoint the server printed on stderr (`{"msg":"listening","url":…}`). */
  url: URL;
  proc: ChildProcess;
  /** Everything written to stdout so far (must stay empty). */
  stdout(): string;
  /** Everything written to stderr so far (listening line, one JSON line per request, …). */
  stderr(): string;
  /** SIGTERM, then waits for the exit; a no-op when it already exited. */
  stop(): Promise<void>;
}

/** A server that exited before listening: its exit code and everything it wrote on stderr. */
export class HttpServerExited extends Error {
  constructor(
    name: string,
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`${name} exited ${code}; stderr: ${stderr}`);
  }
}

/** What {@link startHttpServer} passes besides the server's own arguments. */
export interface StartHttpServerOptions {
  /** Extra environment (the child gets only PATH and HOME besides these). */
  env?: Record<string, string>;
  /** `--port` (default 0: any free port). */
  port?: number;
  /** Milliseconds to wait for the listening line (default 10 000). */
  timeoutMs?: number;
}

/**
 * Spawns the built server `name` (servers/<name>/dist) with `--transport http --port 0 …args` and
 * waits for its listening line. Errors: rejects with {@link HttpServerExited} when it exits first,
 * or an Error when it prints no URL in time.
 */
export async function startHttpServer(
  name: string,
  args: string[],
  options: StartHttpServerOptions = {},
): Promise<HttpServer> {
  const bin = serverBin(name);
  const proc = spawn(
    bin.command,
    [...bin.args, '--transport', 'http', '--port', String(options.port ?? 0), ...args],
    {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  proc.stdout?.on('data', (d) => {
    out += d;
  });
  proc.stderr?.on('data', (d) => {
    err += d;
  });
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name}: no listening line; stderr: ${err}`)),
      options.timeoutMs ?? 10_000,
    );
    const onData = () => {
      const m = /"msg":"listening","url":"([^"]+)"/.exec(err);
      if (m?.[1]) {
        clearTimeout(timer);
        proc.stderr?.off('data', onData);
        resolve(new URL(m[1]));
      }
    };
    proc.stderr?.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new HttpServerExited(name, code, err));
    });
  });
  return {
    url,
    proc,
    stdout: () => out,
    stderr: () => err,
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Starts the built server `name` as {@link startHttpServer} does, expecting it to refuse: resolves
 * to how it exited. Errors: rejects when it listens instead (it is then stopped).
 */
export async function httpStartupFailure(
  name: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<HttpServerExited> {
  const outcome = await startHttpServer(name, args, { env }).then(
    async (server) => {
      await server.stop();
      return new Error(`${name} started listening at ${server.url.href}`);
    },
    (error: unknown) => error,
  );
  if (outcome instanceof HttpServerExited) return outcome;
  throw outcome;
}

/** The JSON lines of `stderr` whose `msg` is `"http"` (one per request, shared/src/transport/http/serve.ts). */
export function httpLogLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((l) => l.includes('"msg":"http"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * Connects the SDK's Streamable HTTP client to `url` in `era` (`legacy` = 2025-11-25 with a
 * session, `modern` = 2026-07-28 stateless), sending `Authorization: Bearer <token>` when given and
 * declaring `capabilities` (e.g. elicitation) when given.
 */
export async function connectHttp(url: URL, era: Era, token?: string, capabilities?: ClientCapabilities) {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
  });
  const client = new Client(
    { name: 'refmcp-test-harness', version: '1.0.0' },
    {
      versionNegotiation: { mode: era === 'modern' ? { pin: MODERN_PROTOCOL_VERSION } : 'legacy' },
      ...(capabilities ? { capabilities } : {}),
    },
  );
  await client.connect(transport, { timeout: 10_000 });
  return { client, transport };
}

/** A raw HTTP answer. */
export interface RawHttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One raw HTTP request with node:http (so `Host` can be set), to `opts.path` (default the URL's
 * path) with JSON and SSE accepted. Errors: rejects on a connection error.
 */
export function rawHttp(
  url: URL,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<RawHttpResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: opts.path ?? url.pathname,
        method: opts.method ?? 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...opts.headers,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

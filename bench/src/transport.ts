/**
 * A stdio client transport with linear-time framing. The SDK's StdioClientTransport re-concatenates
 * its whole read buffer on every chunk (ReadBuffer.append → Buffer.concat), which is quadratic in
 * the message size: receiving one 35 MB answer costs the bench ~10 s of its own CPU, and that time
 * would be charged to whichever server sent the big answer. This one keeps the chunks of the
 * current line in a list and joins them once, at the newline.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  type CallToolResult,
  type JSONRPCMessage,
  parseJSONRPCMessage,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/client';

/** A response to a raw request, unvalidated. */
export interface RawResponse {
  result?: CallToolResult;
  error?: { code: number; message: string };
}

/**
 * Extra Node options for the servers under test, from $BENCH_SERVER_NODE_ARGS (space-separated),
 * e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile each spawned server. Only applied when the
 * command is this Node (a server run as `node <bin>`); empty by default.
 */
function serverNodeArgs(command: string): string[] {
  const extra = process.env.BENCH_SERVER_NODE_ARGS?.trim();
  return extra && command === process.execPath ? extra.split(/\s+/) : [];
}

/** Largest line accepted (bytes); a longer one is reported through onerror and dropped. */
const MAX_LINE_BYTES = 1024 * 1024 * 1024;
/** Stderr kept (characters, newest kept). */
const STDERR_KEEP = 4096;

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** The last few KB the child wrote to stderr. */
  stderrTail = '';
  private child: ChildProcess | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private alive = false;
  private exited: Promise<void> | undefined;
  private raw = new Map<string, { resolve: (r: RawResponse) => void; reject: (e: Error) => void }>();
  private rawSeq = 0;

  constructor(
    private readonly command: string,
    private readonly args: string[],
    private readonly env: Record<string, string>,
  ) {}

  /** The child's pid while it runs. */
  get pid(): number | undefined {
    return this.alive ? this.child?.pid : undefined;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('StdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.command, [...serverNodeArgs(this.command), ...this.args], {
        env: this.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
      });
      this.child = child;
      this.exited = new Promise((done) => child.once('close', () => done()));
      child.once('spawn', () => {
        this.alive = true;
        resolve();
      });
      child.once('error', (error) => (this.alive ? this.onerror?.(error) : reject(error)));
      child.once('exit', () => {
        this.alive = false;
      });
      child.once('close', () => {
        this.alive = false;
        for (const { reject } of this.raw.values()) reject(new Error('connection closed: the server exited'));
        this.raw.clear();
        this.onclose?.();
      });
      child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_KEEP);
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin?.writable) return Promise.reject(new Error('server stdin is closed'));
    return new Promise((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  /**
   * Sends a request beside the SDK client (string ids, which the client never uses) and resolves
   * with the raw response: no schema validation, no timeout. The throughput loop uses this so that
   * it measures the server, not the client's per-message validation.
   */
  rawRequest(method: string, params: Record<string, unknown>): Promise<RawResponse> {
    const id = `raw-${++this.rawSeq}`;
    return new Promise((resolve, reject) => {
      this.raw.set(id, { resolve, reject });
      this.send({ jsonrpc: '2.0', id, method, params }).catch((error: Error) => {
        this.raw.delete(id);
        reject(error);
      });
    });
  }

  /** EOF on stdin, then SIGTERM after 2 s, then SIGKILL after 2 s more; resolves once exited. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || !this.exited) return;
    child.stdin?.end();
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (!this.alive || (await settlesWithin(this.exited, 2000))) break;
      child.kill(signal);
    }
    await this.exited;
  }

  /** SIGKILL if still running (the exit-time safety net). */
  kill(): void {
    if (this.alive) this.child?.kill('SIGKILL');
  }

  private onStdout(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.pending.push(chunk.subarray(start, nl));
      this.takeLine();
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > MAX_LINE_BYTES) {
        this.pending = [];
        this.pendingBytes = 0;
        this.onerror?.(new Error(`stdout line longer than ${MAX_LINE_BYTES} bytes`));
      }
    }
  }

  private takeLine(): void {
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    if (!line.trim()) return;
    let value: unknown;
    let message: JSONRPCMessage;
    try {
      value = JSON.parse(line);
      const id = (value as { id?: unknown }).id;
      const raw = typeof id === 'string' ? this.raw.get(id) : undefined;
      if (raw) {
        this.raw.delete(id as string);
        raw.resolve(value as RawResponse);
        return;
      }
      message = parseJSONRPCMessage(value);
    } catch (error) {
      this.onerror?.(new Error(`not a JSON-RPC message on stdout: ${line.slice(0, 200)} (${error})`));
      return;
    }
    this.onmessage?.(message);
  }
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// A stdio client transport that spawns the server itself so it can keep every raw stdout line.
// The SDK's StdioClientTransport drops (or errors on) lines that are not JSON-RPC, which is exactly
// what the stdout-purity check (ALL-01) needs to see.
import { type ChildProcess, spawn } from 'node:child_process';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/client';
import { descendants, type ProcessId } from './process-tree.js';

/** How to launch a stdio MCP server: what a host config entry holds. */
export interface LaunchTarget {
  /** Executable (looked up on PATH, no shell). */
  command: string;
  args?: string[];
  /** Environment for the server; merged over the host-like default set (PATH, HOME, …). */
  env?: Record<string, string>;
  /** Working directory; defaults to the harness's cwd. */
  cwd?: string;
}

/** How the child process ended: exit code, or the signal that killed it. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Largest stdout line kept while waiting for its newline (bytes); beyond it the transport errors. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** How often descendants of the server are looked up while it runs, in milliseconds. */
const TRACK_INTERVAL_MS = 200;
/** How long to wait for stdout to drain after the server exited, in milliseconds. */
const DRAIN_MS = 200;
/** Largest stderr kept (characters); older output is dropped from the front. */
const MAX_STDERR_CHARS = 8 * 1024 * 1024;

/**
 * Newline-delimited JSON-RPC over a spawned child's stdin/stdout, recording what the child says.
 * Lines that are not a JSON-RPC message are recorded in `nonJsonLines` and not delivered.
 * `env` must be the complete environment (no merging happens here).
 */
export class RecordingStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Every stdout line, in order, without its newline (a trailing `\r` is kept out too). */
  readonly lines: string[] = [];
  /** The stdout lines that did not parse as a JSON-RPC message. */
  readonly nonJsonLines: string[] = [];
  /** Resolves once the child has exited. */
  readonly exited: Promise<ProcessExit>;
  /** `params._meta` of the last request or notification sent that had one (the modern era's envelope). */
  lastMeta: Record<string, unknown> | undefined;

  private child: ChildProcess | undefined;
  private readonly labels = new Map<string, string>();
  private readonly seenDescendants = new Map<string, ProcessId>();
  private tracker: NodeJS.Timeout | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private stderrText = '';
  private exitInfo: ProcessExit | undefined;
  private resolveExit!: (exit: ProcessExit) => void;
  private closed = false;

  constructor(
    private readonly target: Required<Pick<LaunchTarget, 'command' | 'args' | 'env'>> & { cwd?: string },
  ) {
    this.exited = new Promise((resolve) => {
      this.resolveExit = resolve;
    });
  }

  /** Process id of the server (undefined before start). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Everything the child wrote to stderr so far (UTF-8). */
  get stderr(): string {
    return this.stderrText;
  }

  /** The exit status if the child has exited. */
  get exitStatus(): ProcessExit | undefined {
    return this.exitInfo;
  }

  /** Spawns the child. Rejects if it cannot be spawned (ENOENT, EACCES). */
  start(): Promise<void> {
    if (this.child) throw new Error('RecordingStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.target.command, this.target.args, {
        env: this.target.env,
        cwd: this.target.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
      });
      this.child = child;
      let spawned = false;
      child.once('spawn', () => {
        spawned = true;
        this.tracker = setInterval(() => this.trackDescendants(), TRACK_INTERVAL_MS);
        this.tracker.unref();
        resolve();
      });
      child.once('error', (error) => {
        if (spawned) {
          this.onerror?.(error);
          return;
        }
        // Never started (ENOENT, EACCES): no 'close' may follow, so settle `exited` here.
        this.closed = true;
        this.exitInfo = { code: null, signal: null };
        this.resolveExit(this.exitInfo);
        reject(error);
      });
      // Settle on 'exit', not only on 'close': a grandchild that inherited the server's stdout can
      // hold the pipe open long after the server is gone. Give the pipe a moment to drain first.
      child.once('exit', (code, signal) => {
        clearInterval(this.tracker);
        this.exitInfo = { code, signal };
        const timer = setTimeout(() => this.finish(), DRAIN_MS);
        child.once('close', () => {
          clearTimeout(timer);
          this.finish();
        });
      });
      child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        this.stderrText += chunk;
        if (this.stderrText.length > MAX_STDERR_CHARS)
          this.stderrText = this.stderrText.slice(-MAX_STDERR_CHARS);
      });
      // A child that exits while we write gets EPIPE; that is reported through onclose, not as a crash.
      child.stdin?.on('error', (error) => this.onerror?.(error));
    });
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.flushPartialLine();
    if (this.exitInfo) this.resolveExit(this.exitInfo);
    this.onclose?.();
  }

  /** Writes one message and a newline; resolves when it has been handed to the pipe. */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) {
      return Promise.reject(new Error('server stdin is closed'));
    }
    const meta = (message as { params?: { _meta?: unknown } }).params?._meta;
    if ('method' in message && meta && typeof meta === 'object')
      this.lastMeta = meta as Record<string, unknown>;
    if ('method' in message && 'id' in message) {
      const name = (message.params as { name?: unknown } | undefined)?.name;
      this.labels.set(
        JSON.stringify(message.id),
        typeof name === 'string' ? `${message.method} ${name}` : message.method,
      );
    }
    return new Promise((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  /**
   * Writes `line` and a newline to the server's stdin as it is (not necessarily JSON-RPC, nor even
   * JSON): for checks that send what a real client never should. Resolves when handed to the pipe.
   */
  sendRaw(line: string): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) {
      return Promise.reject(new Error('server stdin is closed'));
    }
    return new Promise((resolve, reject) => {
      stdin.write(`${line}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  /**
   * Every descendant process of the server seen so far (looked up every 200 ms and on each stdout
   * line while it runs), so ones orphaned by a crash can still be found and cleaned up.
   */
  descendantsSeen(): ProcessId[] {
    this.trackDescendants();
    return [...this.seenDescendants.values()];
  }

  private trackDescendants(): void {
    const pid = this.child?.pid;
    if (pid === undefined || this.exitInfo) return;
    for (const proc of descendants(pid)) this.seenDescendants.set(`${proc.pid}:${proc.start}`, proc);
  }

  /** "tools/call echo" for the id of a request this transport sent, else undefined. */
  requestLabel(id: unknown): string | undefined {
    return this.labels.get(JSON.stringify(id));
  }

  /** Ends the child's stdin (EOF) without killing it. */
  closeStdin(): void {
    this.child?.stdin?.end();
  }

  /**
   * Shuts the child down as a host does: EOF on stdin, then SIGTERM after `graceMs`, then SIGKILL
   * after another `graceMs`. Resolves once it has exited.
   */
  async close(graceMs = 500): Promise<void> {
    const child = this.child;
    if (!child || this.closed) return;
    this.closeStdin();
    if (await exitsWithin(this.exited, graceMs)) return;
    child.kill('SIGTERM');
    if (await exitsWithin(this.exited, graceMs * 2)) return;
    child.kill('SIGKILL');
    await this.exited;
  }

  private onStdout(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
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
        this.onerror?.(new Error(`stdout line longer than ${MAX_LINE_BYTES} bytes without a newline`));
      }
    }
  }

  private flushPartialLine(): void {
    if (this.pending.length > 0) this.takeLine();
  }

  private takeLine(): void {
    // Splitting on byte 0x0A is safe for UTF-8: it never occurs inside a multi-byte sequence.
    let line = Buffer.concat(this.pending).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    this.lines.push(line);
    this.trackDescendants();
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      this.nonJsonLines.push(line);
      return;
    }
    this.onmessage?.(message);
  }
}

/** True if `exited` settles within `ms` milliseconds. */
export async function exitsWithin(exited: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([exited.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

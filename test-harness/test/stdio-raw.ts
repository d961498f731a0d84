/**
 * A built server driven over stdio line by line (no SDK client), for the protocol details a client
 * library would not send: a later request claiming another protocol version, a JSON-RPC batch.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { serverBin } from '../src/index.js';

export interface RawStdio {
  /** Writes one line (a message, or a batch array). */
  send(message: unknown): void;
  /** The next line whose parsed value `match` accepts (waits for it; rejects after `ms`). */
  next(match: (message: unknown) => boolean, ms?: number): Promise<unknown>;
  /** Every line received so far, parsed. */
  lines(): unknown[];
  close(): Promise<void>;
}

/** Spawns `servers/<name>/dist` with `args` over stdio. */
export function rawStdio(name: string, args: string[], env: Record<string, string> = {}): RawStdio {
  const bin = serverBin(name);
  const child: ChildProcessWithoutNullStreams = spawn(bin.command, [...bin.args, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  const received: unknown[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) received.push(JSON.parse(line));
    }
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.resume();
  return {
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    lines: () => received,
    async next(match, ms = 15_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = received.find(match);
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`no matching line; got ${JSON.stringify(received)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await exited;
    },
  };
}

/** `{ id }` matcher. */
export const byId = (id: number | string) => (m: unknown) => (m as { id?: unknown }).id === id;

// ALL-04 stdin EOF: a host that quits closes the server's stdin; the server must exit with code 0
// within 2 s, even with a call in flight, and take its child processes with it.
import { setTimeout as delay } from 'node:timers/promises';
import { describePid, isAlive, killAndWait } from '../process-tree.js';
import { exitsWithin } from '../transport.js';
import type { CallOutcome, CheckContext, CheckResult } from './context.js';
import { describeExit } from './context.js';

/** How long the server has to exit after stdin EOF, in milliseconds. */
export const EOF_EXIT_MS = 2000;

/** ALL-04 on a fresh connection: optional slow call in flight → EOF → exit code 0 within 2 s, no descendants left. */
export async function checkStdinEof(ctx: CheckContext): Promise<CheckResult> {
  const failures: string[] = [];
  const notes: string[] = [];
  const conn = await ctx.open('stdin-eof');
  let slow: Promise<CallOutcome> | undefined;
  const slowCall = ctx.opts.slowCall;
  if (slowCall) {
    slow = ctx.call(conn, slowCall.name, slowCall.arguments ?? {}, 60_000);
    // Let the call arrive and start whatever it starts: two pings in turn. By the time the server
    // reads the second, it has read the call and run its handler up to its first wait (the first
    // ping may share the call's read and be answered before the handler runs). A fixed pause was
    // too short on a loaded machine, and the helper process went unseen.
    for (let i = 0; i < 2; i++)
      await conn.client.ping({ timeout: Math.min(ctx.callTimeoutMs, 5000) }).catch(() => undefined);
    notes.push(`closed stdin with ${slowCall.name} in flight`);
  } else {
    notes.push('closed stdin right after the handshake (no slowCall given)');
  }
  const children = conn.descendantsSeen();
  const started = Date.now();
  conn.closeStdin();
  if (await exitsWithin(conn.exited, EOF_EXIT_MS)) {
    const exit = conn.exitStatus();
    if (exit?.code !== 0)
      failures.push(`exited with ${describeExit(conn)} after stdin EOF (expected code 0)`);
    else notes.push(`exited with code 0 ${Date.now() - started} ms after stdin EOF`);
  } else {
    failures.push(`still running ${EOF_EXIT_MS} ms after stdin EOF (killed)`);
    try {
      process.kill(conn.pid, 'SIGKILL');
    } catch {
      // exited just now
    }
    await conn.exited;
  }
  // A child the server signalled on its way out may take a moment to go (longer on a loaded machine).
  const reapBy = Date.now() + 2000;
  while (Date.now() < reapBy && children.some((p) => isAlive(p))) await delay(50);
  const left = children.filter((p) => isAlive(p));
  if (left.length > 0) {
    failures.push(
      `left ${left.length} child process(es) running: ${left.map((p) => describePid(p.pid)).join('; ')}`,
    );
  }
  notes.push(`${children.length} descendant process(es) seen before EOF`);
  await killAndWait(left);
  await slow;
  return {
    id: 'ALL-04',
    name: 'stdin EOF → prompt exit',
    ok: failures.length === 0,
    details: [...failures, ...notes],
  };
}

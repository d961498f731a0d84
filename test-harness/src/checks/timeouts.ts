// ALL-07 timeouts: one slow call must not hold up the rest — an unrelated tools/list made while it
// is in flight is answered before it. What is checked is the order of the two answers on stdout, not
// a number of milliseconds: a server that serialises its requests answers tools/list only after the
// slow call, however fast the machine; a loaded machine only makes both later.
import { setTimeout as delay } from 'node:timers/promises';
import type { Connection } from '../connect.js';
import { errorMessage } from '../connect.js';
import type { CallOutcome, CheckContext, CheckResult } from './context.js';
import { preview } from './context.js';

/** ALL-07 on the main connection; skipped without `slowCall`. */
export async function checkTimeouts(ctx: CheckContext): Promise<CheckResult> {
  const base = { id: 'ALL-07', name: 'slow call does not block others' };
  const slowCall = ctx.opts.slowCall;
  if (!slowCall) return { ...base, ok: true, skipped: true, details: ['no slowCall given'] };
  const failures: string[] = [];
  const notes: string[] = [];
  const conn = await ctx.main();
  const slow: Promise<CallOutcome> = ctx.call(
    conn,
    slowCall.name,
    slowCall.arguments ?? {},
    Math.max(ctx.callTimeoutMs, 60_000),
  );
  await delay(200);
  const started = Date.now();
  let listed = false;
  try {
    await conn.client.request({ method: 'tools/list', params: {} }, { timeout: ctx.callTimeoutMs });
    listed = true;
  } catch (error) {
    failures.push(
      `tools/list did not answer within ${ctx.callTimeoutMs} ms while ${slowCall.name} was in flight (${errorMessage(error)})`,
    );
  }
  const listMs = Date.now() - started;
  const outcome = await slow;
  if (listed) {
    const listAt = lastAnswerLine(conn, 'tools/list');
    const slowAt = lastAnswerLine(conn, `tools/call ${slowCall.name}`);
    if (slowAt >= 0 && slowAt < listAt)
      failures.push(
        `tools/list answered only after ${slowCall.name} did: the slow call held it up (or is not slow enough to test; give it longer)`,
      );
    else notes.push(`tools/list answered in ${listMs} ms while ${slowCall.name} was in flight`);
  }
  notes.push(
    outcome.kind === 'result'
      ? `${slowCall.name} answered after ${outcome.ms} ms, isError=${outcome.result.isError === true}: ${preview(outcome.text, 80)}`
      : `${slowCall.name}: ${outcome.kind} after ${outcome.ms} ms: ${preview(outcome.message, 80)}`,
  );
  return { ...base, ok: failures.length === 0, details: [...failures, ...notes] };
}

/** Index of the last stdout line answering a request labelled `label` (e.g. "tools/list"), or -1. */
function lastAnswerLine(conn: Connection, label: string): number {
  const lines = conn.stdoutLines();
  for (let i = lines.length - 1; i >= 0; i--) {
    let message: unknown;
    try {
      message = JSON.parse(lines[i] ?? '');
    } catch {
      continue;
    }
    if (!message || typeof message !== 'object' || 'method' in message || !('id' in message)) continue;
    if (conn.requestLabel((message as { id: unknown }).id) === label) return i;
  }
  return -1;
}

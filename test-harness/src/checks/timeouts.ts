// ALL-07 timeouts: one slow call must not hold up the rest — an unrelated tools/list made while it
// is in flight answers within 1 s.
import { setTimeout as delay } from 'node:timers/promises';
import { errorMessage } from '../connect.js';
import type { CallOutcome, CheckContext, CheckResult } from './context.js';
import { preview } from './context.js';

/** How fast the unrelated tools/list must answer, in milliseconds. */
export const UNRELATED_CALL_MS = 1000;

/** ALL-07 on the main connection; skipped without `slowCall`. */
export async function checkTimeouts(ctx: CheckContext): Promise<CheckResult> {
  const base = { id: 'ALL-07', name: 'slow call does not block others' };
  const slowCall = ctx.opts.slowCall;
  if (!slowCall) return { ...base, ok: true, skipped: true, details: ['no slowCall given'] };
  const failures: string[] = [];
  const notes: string[] = [];
  const conn = await ctx.main();
  let pending = true;
  const slow: Promise<CallOutcome> = ctx
    .call(conn, slowCall.name, slowCall.arguments ?? {}, Math.max(ctx.callTimeoutMs, 60_000))
    .finally(() => {
      pending = false;
    });
  await delay(200);
  const started = Date.now();
  try {
    await conn.client.request({ method: 'tools/list', params: {} }, { timeout: UNRELATED_CALL_MS });
    const ms = Date.now() - started;
    if (!pending)
      failures.push(
        `${slowCall.name} was no longer in flight when tools/list answered: not slow enough to test`,
      );
    else notes.push(`tools/list answered in ${ms} ms while ${slowCall.name} was in flight`);
  } catch (error) {
    failures.push(
      `tools/list did not answer within ${UNRELATED_CALL_MS} ms while ${slowCall.name} was in flight (${errorMessage(error)})`,
    );
  }
  const outcome = await slow;
  notes.push(
    outcome.kind === 'result'
      ? `${slowCall.name} answered after ${outcome.ms} ms, isError=${outcome.result.isError === true}: ${preview(outcome.text, 80)}`
      : `${slowCall.name}: ${outcome.kind} after ${outcome.ms} ms: ${preview(outcome.message, 80)}`,
  );
  return { ...base, ok: failures.length === 0, details: [...failures, ...notes] };
}
